import { Router } from 'express';
import { z } from 'zod';
import {
  GatewayError, parseInput, randomId, requireSession, type ArtifactDownloads, type ArtifactStore, type Broker, type Cas, type EventHub, type InvocationStore,
  type PermissionGate, type SessionStore,
} from '../gateway/index.js';

export interface ArtifactRoutesDeps {
  sessions: SessionStore;
  invocations: InvocationStore;
  cas: Cas;
  artifacts: ArtifactStore;
  artifactDownloads: ArtifactDownloads;
  broker: Broker;
  events: EventHub;
  permissionGate: PermissionGate;
}

const planBody = z
  .object({ mcpInvocationId: z.string().min(1).max(200), candidateId: z.string().min(1).max(200), destinationPath: z.string().min(1).max(1024).optional() })
  .strict();

/**
 * Artifacts (GATEWAY.md §10): a Session's candidates, plans and jobs, for audit and the page. A plan
 * created here is an `artifact_download` call through the broker (audited, validated, same checks
 * and job) made by the admin as an explicit action (origin `inspector`, its own allow_once); approve
 * decides the pending permission request of a plan an agent's call is waiting on. Jobs can be
 * cancelled and retried (from the part file they kept).
 */
export function artifactRoutes(deps: ArtifactRoutesDeps): Router {
  const router = Router();

  router.get('/sessions/:id/artifact-candidates', async (req, res) => {
    const session = await requireSession(deps.sessions, req.params.id);
    const candidates: unknown[] = [];
    for (const invocation of await deps.invocations.listBySession(session.id, { limit: 200 })) {
      if (invocation.status !== 'ok' || !invocation.casHash || !invocation.sourceId) continue;
      const stored = await deps.cas.get(invocation.casHash);
      const artifacts = stored ? (JSON.parse(stored.toString('utf8')) as { artifacts?: unknown[] }).artifacts : undefined;
      for (const candidate of Array.isArray(artifacts) ? artifacts : []) candidates.push({ mcpInvocationId: invocation.id, candidate });
    }
    res.json({ candidates });
  });

  router.get('/sessions/:id/artifact-plans', async (req, res) => {
    res.json({ plans: await deps.artifacts.listPlans((await requireSession(deps.sessions, req.params.id)).id) });
  });

  router.post('/sessions/:id/artifact-plans', async (req, res) => {
    const session = await requireSession(deps.sessions, req.params.id);
    const body = parseInput(planBody, req.body ?? {});
    const invocationId = randomId('inv');
    const planned = new Promise<unknown>((resolve) => {
      const stop = deps.events.subscribe((event) => {
        if (event.type === 'artifact.plan' && (event.data as { invocationId?: string }).invocationId === invocationId) {
          stop();
          resolve(event.data);
        }
      });
      setTimeout(stop, 60_000).unref();
    });
    const call = deps.broker.call({ invocationId, toolName: 'artifact_download', arguments: body, session, origin: 'inspector', signal: new AbortController().signal });
    call.catch(() => {});
    const first = await Promise.race([planned.then((plan) => ({ plan })), call.then(() => ({ plan: undefined }), (error: unknown) => ({ error }))]);
    if ('error' in first) throw GatewayError.from(first.error);
    const plan = first.plan ?? (await deps.artifacts.listPlans(session.id)).find((p) => p.invocationId === invocationId);
    res.status(202).json({ invocationId, plan });
  });

  router.post('/artifact-plans/:id/approve', async (req, res) => {
    const plan = await deps.artifacts.getPlan(req.params.id);
    if (!plan) throw new GatewayError('not_found', `No artifact plan ${req.params.id.slice(0, 80)}; list a Session's plans with GET /api/sessions/:id/artifact-plans.`);
    const pending = (await deps.permissionGate.listRequests(plan.sessionId, 'pending')).find((r) => r.invocationId === plan.invocationId);
    if (plan.status !== 'awaiting_approval' || !pending) {
      throw new GatewayError('conflict', `Artifact plan ${plan.id} is ${plan.status}; only a plan awaiting approval can be approved.`);
    }
    const request = await deps.permissionGate.decide(pending.id, 'allow_once', { via: 'admin' });
    res.json({ plan: await deps.artifacts.getPlan(plan.id), request });
  });

  router.get('/sessions/:id/download-jobs', async (req, res) => {
    res.json({ jobs: await deps.artifacts.listJobs((await requireSession(deps.sessions, req.params.id)).id) });
  });

  router.get('/download-jobs/:id', async (req, res) => {
    const job = await deps.artifacts.getJob(req.params.id);
    if (!job) throw new GatewayError('not_found', `No download job ${req.params.id.slice(0, 80)}; list a Session's jobs with GET /api/sessions/:id/download-jobs.`);
    res.json({ job });
  });

  router.post('/download-jobs/:id/cancel', async (req, res) => {
    res.status(202).json({ job: await deps.artifactDownloads.cancel(req.params.id) });
  });

  router.post('/download-jobs/:id/retry', async (req, res) => {
    res.status(202).json({ job: await deps.artifactDownloads.retry(req.params.id) });
  });
  return router;
}
