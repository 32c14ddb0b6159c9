import { createHash } from 'node:crypto';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { isErrorCode } from '../../catalog/index.js';
import {
  GatewayError, StoppableWork, linkSignals, type ArtifactPlanRecord, type CallDeadline, type DownloadJobRecord, type InvocationOrigin, type NewId,
  type PermissionAuthorizationRecord, type SessionRecord, workspaceResourceUri,
} from '../core/index.js';
import { artifactDownloadAction, type ClientApprover, type PermissionGate } from '../permissions/index.js';
import { Destinations } from './destinations.js';
import { runDownloadJob, type JobEnding, type JobRunnerDeps } from './downloadJobRunner.js';
import { findOfferedCandidate, type OfferedCandidate, type OfferedCandidateDeps } from './offeredCandidate.js';
import { warmDownloadWorker } from './workerTransfer.js';

/** How much of a file is read at once to hash it at start-up. */
const HASH_CHUNK_BYTES = 1024 * 1024;


export interface ArtifactDownloadsDeps extends JobRunnerDeps, OfferedCandidateDeps {
  permissionGate: PermissionGate;
  newId: NewId;
}

/** One request to download a candidate: from the agent's tool call or the admin API. */
export interface DownloadAsk {
  session: SessionRecord;
  /** The Invocation of the call that asks (its row references the authorization). */
  invocationId: string;
  origin: InvocationOrigin;
  mcpInvocationId: string;
  candidateId: string;
  destinationPath?: string;
  signal: AbortSignal;
  deadline?: CallDeadline;
  askClient?: ClientApprover;
  onProgress?: (progress: Progress) => void;
  /** Told the candidate's source, and the authorization, as soon as they are known (the audit trail). */
  onSource?: (sourceId: string) => void;
  onAuthorized?: (authorizationId: string) => void;
}

/** ArtifactDownloadResult (seed §6.2) of a completed download. */
export interface ArtifactDownloadResult {
  status: 'completed';
  candidateId: string;
  planId: string;
  jobId: string;
  finalPath: string;
  resourceUri: string;
  bytesDownloaded: number;
  sha256: string;
  actualChecksum: string;
  mediaType: string;
  kind: string;
  sourceId: string;
  sourceRecordId: string;
  license: string;
  attempts: number;
}

/**
 * artifact_download's work (GATEWAY.md §8): the candidate from a governed Invocation's stored result,
 * an ArtifactPlan before anything is fetched, permission from the gate (action `artifact.download`
 * on the candidate's source), then a DownloadJob run to a terminal state. Also the admin API's
 * cancel and retry, and the start-up sweep of jobs a stopped gateway left unfinished.
 */
export class ArtifactDownloads {
  private readonly running = new Map<string, AbortController>();
  /** Downloads and retries under way; at `close` every transfer stops where it is and keeps its part file. */
  private readonly work = new StoppableWork();
  readonly destinations: Destinations;

  constructor(private readonly deps: ArtifactDownloadsDeps) {
    this.destinations = new Destinations(deps.workspace, deps.store);
  }

  /** Resolves only at a terminal state: completed, or throws with the plan/job ending in `details`. */
  download(ask: DownloadAsk): Promise<ArtifactDownloadResult> {
    // A stop also ends a wait for permission (the plan expires) instead of waiting for a human.
    return this.work.run(ask.signal, (signal) => this.downloadNow({ ...ask, signal }));
  }

  /**
   * The gateway is stopping: stops every transfer (each keeps its part file and its job stays as last
   * saved, so the next start marks it interrupted and a retry resumes) and resolves once none runs.
   */
  close(): Promise<void> {
    return this.work.stop(stoppingError());
  }

  private async downloadNow(ask: DownloadAsk): Promise<ArtifactDownloadResult> {
    const offered = await findOfferedCandidate(this.deps, ask.session, ask.mcpInvocationId, ask.candidateId);
    ask.onSource?.(offered.candidate.sourceId);
    // The byte mover starts while the plan is stored and permission asked for (nothing is fetched before).
    warmDownloadWorker();
    const plan = await this.plan(ask, offered);
    let ending: JobEnding;
    try {
      const authorization = await this.authorize(plan, ask);
      ending = await this.runJob(this.newJob(plan, authorization), offered, ask.signal, ask.onProgress);
    } finally {
      await this.destinations.release(plan.sessionId, plan.destinationPath);
    }
    if (ending.error) throw withEnding(ending.error, { planId: plan.id, jobId: ending.job.id, status: ending.job.state, bytesDownloaded: ending.job.bytesDone });
    return resultOf(plan, ending.job);
  }

  /** Cancels a running or queued job (admin API); a job that already ended is answered `conflict`. */
  async cancel(jobId: string): Promise<DownloadJobRecord> {
    const job = await this.requireJob(jobId);
    const controller = this.running.get(jobId);
    if (!controller) throw new GatewayError('conflict', `Download job ${job.id} is ${job.state}, not running; nothing to cancel.`);
    controller.abort(new GatewayError('cancelled', 'The download was cancelled from the admin API.'));
    return job;
  }

  /**
   * Runs a failed or cancelled job again under its plan's authorization, in the background, from the
   * part file it kept (Range resume); resolves with the job as it starts.
   */
  async retry(jobId: string): Promise<DownloadJobRecord> {
    const job = await this.requireJob(jobId);
    if (job.state !== 'failed' && job.state !== 'cancelled') throw new GatewayError('conflict', `Download job ${job.id} is ${job.state}; only failed or cancelled jobs can be retried.`);
    const plan = (await this.deps.store.getPlan(job.planId))!;
    const manifest = this.deps.registry.get(plan.sourceId)?.manifest;
    if (!manifest) throw new GatewayError('tool_unavailable', `The source ${plan.sourceId} is no longer in the catalog; its downloads cannot be retried.`);
    if (!this.destinations.claim(job.sessionId, job.destinationPath)) throw new GatewayError('conflict', `Another download is writing ${job.destinationPath}.`);
    const queued = (await this.deps.store.updateJob(job.id, { state: 'queued', errorCode: null, errorMessage: null, endedAt: null, updatedAt: this.now() }))!;
    // Runs in the background (nobody can cancel it but a stop).
    void this.work
      .run(undefined, (signal) => this.runJob(queued, { candidate: plan.candidate, manifest }, signal))
      .catch((error: unknown) => this.deps.log.error({ err: error, jobId }, 'a retried download failed unexpectedly'))
      .finally(() => this.destinations.release(job.sessionId, job.destinationPath).catch(() => {}));
    return queued;
  }

  /**
   * At start-up: jobs a stopped gateway left unfinished are marked failed with the reason (their part
   * files stay, so a retry resumes), or completed if the stop came after the file was in place.
   * With `alive` (replica ids sharing the store), only dead replicas' jobs. Resolves with how many failed.
   */
  async failInterrupted(alive?: readonly string[]): Promise<number> {
    const left = await this.deps.store.listJobsIn(['queued', 'running', 'retrying', 'verifying'], alive);
    let failed = 0;
    for (const job of left) {
      const part = await this.deps.workspace.partialSize(job.sessionId, job.destinationPath).catch(() => undefined);
      if (part === undefined && job.state === 'verifying' && (await this.completeCommitted(job))) continue;
      const kept = part ?? 0;
      failed += 1;
      await this.deps.store.updateJob(job.id, {
        state: 'failed', errorCode: 'interrupted', bytesDone: kept, endedAt: this.now(), updatedAt: this.now(),
        errorMessage: `The gateway stopped during this download; ${kept} bytes were kept. Retry it (POST /api/download-jobs/${job.id}/retry) or call artifact_download again: it resumes from them.`,
      });
    }
    return failed;
  }

  /**
   * A job stopped while `verifying`, its part file gone and its file in place, was committed (a part
   * file is renamed into place only once verified, and no other write takes a reserved path) and
   * the stop came before its `completed` was saved: it is completed now, its sha256 read back.
   * Failed instead, it would claim 0 bytes kept, and its retry could only meet the file as a conflict.
   */
  private async completeCommitted(job: DownloadJobRecord): Promise<boolean> {
    const { workspace, store, log } = this.deps;
    const file = await workspace.stat(job.sessionId, job.destinationPath).catch(() => undefined);
    if (!file) return false;
    const hash = createHash('sha256');
    for (let offset = 0; offset < file.sizeBytes; offset += HASH_CHUNK_BYTES) {
      hash.update(await workspace.read(job.sessionId, job.destinationPath, { offset, length: Math.min(HASH_CHUNK_BYTES, file.sizeBytes - offset) }));
    }
    await store.updateJob(job.id, {
      state: 'completed', bytesDone: file.sizeBytes, totalBytes: file.sizeBytes, sha256: hash.digest('hex'), errorCode: null, errorMessage: null,
      endedAt: this.now(), updatedAt: this.now(),
    });
    log.warn({ jobId: job.id, path: job.destinationPath }, 'a download whose file was in place when the gateway stopped was marked completed');
    return true;
  }

  private async plan(ask: DownloadAsk, offered: OfferedCandidate): Promise<ArtifactPlanRecord> {
    const { candidate, invocation } = offered;
    const destinationPath = await this.destinations.reserve(ask.session.id, candidate, ask.destinationPath);
    const plan: ArtifactPlanRecord = {
      id: this.deps.newId('plan'), sessionId: ask.session.id, projectId: ask.session.projectId, invocationId: ask.invocationId,
      sourceInvocationId: invocation.id, candidateId: candidate.id, sourceId: candidate.sourceId, sourceRecordId: candidate.sourceRecordId,
      candidate, destinationPath, status: 'awaiting_approval', authorizationId: null, createdAt: this.now(), decidedAt: null,
    };
    try {
      await this.deps.store.addPlan(plan);
    } catch (error) {
      await this.destinations.release(plan.sessionId, destinationPath);
      throw error;
    }
    this.deps.events.publish('artifact.plan', plan.sessionId, plan);
    return plan;
  }

  /** Asks the permission gate; the plan records the decision (approved, denied, or expired when no decision came). */
  private async authorize(plan: ArtifactPlanRecord, ask: DownloadAsk): Promise<PermissionAuthorizationRecord> {
    const decide = async (status: ArtifactPlanRecord['status'], authorizationId: string | null) => {
      await this.deps.store.decidePlan(plan.id, { status, authorizationId, decidedAt: this.now() });
      this.deps.events.publish('artifact.plan', plan.sessionId, { ...plan, status, authorizationId });
    };
    let authorization: PermissionAuthorizationRecord;
    try {
      authorization = await this.deps.permissionGate.authorize({
        sessionId: plan.sessionId, invocationId: ask.invocationId, origin: ask.origin, toolName: 'artifact_download',
        action: artifactDownloadAction(plan.sourceId),
        arguments: { candidateId: plan.candidateId, url: plan.candidate.url, license: plan.candidate.license, sizeBytes: plan.candidate.sizeBytes ?? null, destinationPath: plan.destinationPath },
        signal: ask.signal,
        ...(ask.deadline ? { deadline: ask.deadline } : {}),
        ...(ask.askClient ? { askClient: ask.askClient } : {}),
        onWaiting: (request) => ask.onProgress?.({ progress: 0, message: `Waiting for the user to allow artifact.download ${plan.sourceId} (request ${request.id}).` }),
      });
    } catch (error) {
      await decide('expired', null);
      throw withEnding(GatewayError.from(error), { planId: plan.id, status: 'expired' });
    }
    ask.onAuthorized?.(authorization.id);
    await decide(authorization.allowed ? 'approved' : 'denied', authorization.id);
    if (!authorization.allowed) {
      throw new GatewayError('permission_denied', `The user denied downloading ${plan.candidate.filename} from ${plan.sourceId}; do not retry this call.`, {
        details: { planId: plan.id, status: 'denied', authorizationId: authorization.id },
      });
    }
    return authorization;
  }

  private newJob(plan: ArtifactPlanRecord, authorization: PermissionAuthorizationRecord): DownloadJobRecord {
    const { candidate } = plan;
    return {
      id: this.deps.newId('job'), planId: plan.id, sessionId: plan.sessionId, projectId: plan.projectId, sourceId: plan.sourceId,
      sourceRecordId: plan.sourceRecordId, candidateId: plan.candidateId, url: candidate.url, destinationPath: plan.destinationPath,
      mediaType: candidate.mediaType, license: candidate.license, state: 'queued', bytesDone: 0, totalBytes: candidate.sizeBytes ?? null,
      sha256: null, expectedChecksum: candidate.checksum ? `${candidate.checksum.algorithm}:${candidate.checksum.value}` : null, attempts: 0,
      errorCode: null, errorMessage: null, authorizationId: authorization.id, createdAt: this.now(), updatedAt: this.now(), endedAt: null,
    };
  }

  private async runJob(
    job: DownloadJobRecord,
    offered: Pick<OfferedCandidate, 'candidate' | 'manifest'>,
    signal: AbortSignal,
    onProgress?: (p: Progress) => void,
  ): Promise<JobEnding> {
    if (!(await this.deps.store.getJob(job.id))) await this.deps.store.addJob(job);
    this.deps.events.publish('download.updated', job.sessionId, job);
    const controller = new AbortController();
    // `signal` is a StoppableWork piece's: it aborts at a stop too.
    const linked = linkSignals([signal, controller.signal]);
    this.running.set(job.id, controller);
    try {
      return await runDownloadJob(this.deps, {
        job, candidate: offered.candidate, manifest: offered.manifest, signal: linked.signal, stopping: this.work.signal,
        ...(onProgress ? { onProgress: (bytesDone, totalBytes) => onProgress({ progress: bytesDone, ...(totalBytes !== null ? { total: totalBytes } : {}) }) } : {}),
      });
    } finally {
      this.running.delete(job.id);
      linked.release();
    }
  }

  private async requireJob(jobId: string): Promise<DownloadJobRecord> {
    const job = await this.deps.store.getJob(jobId);
    if (!job) throw new GatewayError('not_found', `No download job ${jobId.slice(0, 80)}; list a Session's jobs with GET /api/sessions/:id/download-jobs.`);
    return job;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function stoppingError(): GatewayError {
  return new GatewayError('tool_unavailable', 'The gateway is stopping. Call artifact_download again once it is back: the download resumes from the bytes it kept.', { retryable: true });
}

function resultOf(plan: ArtifactPlanRecord, job: DownloadJobRecord): ArtifactDownloadResult {
  return {
    status: 'completed', candidateId: plan.candidateId, planId: plan.id, jobId: job.id, finalPath: job.destinationPath,
    resourceUri: workspaceResourceUri(job.sessionId, job.destinationPath), bytesDownloaded: job.bytesDone, sha256: job.sha256!,
    actualChecksum: job.sha256!, mediaType: job.mediaType, kind: plan.candidate.kind, sourceId: plan.sourceId, sourceRecordId: plan.sourceRecordId,
    license: job.license, attempts: job.attempts,
  };
}

/** The error with the plan and job it ended attached (seed §6.2's status, planId, jobId, bytesDownloaded). */
function withEnding(error: GatewayError, ending: Record<string, unknown>): GatewayError {
  const code = isErrorCode(error.code) ? error.code : 'internal';
  return new GatewayError(code, error.message, {
    retryable: error.retryable,
    cause: error.cause,
    details: { ...error.details, ...ending },
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    ...(error.attempts !== undefined ? { attempts: error.attempts } : {}),
  });
}
