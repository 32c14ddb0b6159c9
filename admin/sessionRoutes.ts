import { Router } from 'express';
import { sessionPatchSchema } from '../catalog/index.js';
import {
  GatewayError, parseInput, requireSession, type Cas, type ConnectorSelection, type InvocationStore, type PermissionGate, type SecretScrubber, type SessionStore,
} from '../gateway/index.js';
import { parseQueryParams } from './queryParams.js';

export interface SessionRoutesDeps {
  sessions: SessionStore;
  invocations: InvocationStore;
  cas: Cas;
  /** Changes approval modes (rotating the permission epoch). */
  permissionGate: PermissionGate;
  /** Changes a Session's connector selection. */
  selection: ConnectorSelection;
  /** Configured secrets, scrubbed from the arguments an invocation shows (its result was scrubbed before it was stored). */
  secrets: SecretScrubber;
}

/** Sessions, their settings (approval mode, connectors) and their invocations (audit). */
export function sessionRoutes(deps: SessionRoutesDeps): Router {
  const router = Router();

  router.get('/sessions', async (_req, res) => {
    res.json({ sessions: await deps.sessions.list() });
  });

  router.get('/sessions/:id', async (req, res) => {
    res.json({ session: await requireSession(deps.sessions, req.params.id) });
  });

  router.patch('/sessions/:id', async (req, res) => {
    await requireSession(deps.sessions, req.params.id);
    const patch = parseInput(sessionPatchSchema, req.body ?? {});
    if (patch.connectors !== undefined) {
      await deps.selection.setSessionConnectors(req.params.id, patch.connectors);
    }
    if (patch.approvalMode !== undefined) {
      await deps.permissionGate.setApprovalMode(req.params.id, patch.approvalMode);
    }
    res.json({ session: await requireSession(deps.sessions, req.params.id) });
  });

  router.get('/sessions/:id/invocations', async (req, res) => {
    await requireSession(deps.sessions, req.params.id);
    const query = parseQueryParams(req.query, ['limit', 'before']);
    const limit = pageLimit(query.limit);
    const before = query.before !== undefined ? await deps.invocations.get(query.before) : undefined;
    if (query.before !== undefined && before?.sessionId !== req.params.id) {
      throw new GatewayError('invalid_input', 'before must be the id of an invocation of this session (the last one of the previous page, from "next").', {
        details: { field: 'before' },
      });
    }
    const invocations = await deps.invocations.listBySession(req.params.id, { limit, ...(before ? { before } : {}) });
    // The cursor of the next (older) page, while this one was full.
    res.json({ invocations, next: invocations.length === limit ? invocations.at(-1)!.id : null });
  });

  router.get('/sessions/:id/invocations/:invocationId', async (req, res) => {
    await requireSession(deps.sessions, req.params.id);
    const invocation = await deps.invocations.get(req.params.invocationId);
    if (!invocation || invocation.sessionId !== req.params.id) {
      throw new GatewayError('not_found', `No invocation ${req.params.invocationId.slice(0, 80)} in this session.`);
    }
    const [stored, args] = await Promise.all([
      invocation.casHash ? deps.cas.get(invocation.casHash) : undefined,
      invocation.argumentsHash ? deps.cas.get(invocation.argumentsHash) : undefined,
    ]);
    res.json({
      invocation,
      // As the agent sent them (the audit keeps them so); an agent that passed a configured secret
      // along does not have it shown here.
      arguments: args ? deps.secrets.scrubValue(JSON.parse(args.toString('utf8'))) : null,
      result: stored ? JSON.parse(stored.toString('utf8')) : null,
    });
  });
  return router;
}

/** `?limit=`: how many invocations one page holds, 1–1000 (100 when absent); anything else is refused, not guessed at. */
function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const limit = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= 1000)) {
    throw new GatewayError('invalid_input', 'limit must be a whole number from 1 to 1000 (the page size; 100 when left out).', { details: { field: 'limit' } });
  }
  return limit;
}
