import type { SourceManifest } from '../../catalog/index.js';
import {
  GatewayError, type ArtifactStore, type Clock, type DownloadJobPatch, type DownloadJobRecord, type EventHub, type Logger, type PlannedCandidate,
  type SessionWorkspace,
} from '../core/index.js';
import type { SourceLimiters } from '../broker/index.js';
import { runDownload, type DownloadObserver } from './downloadEngine.js';
import type { PhysicalUrl } from './downloadUrls.js';
import { jobProgressWriter } from './jobProgressWriter.js';
import { requireExpectedContent } from './expectedContent.js';

/** Slack over a candidate's announced size before the size limit stops a download: 5 % and at least 64 KiB. */
export function sizeLimitFor(candidate: Pick<PlannedCandidate, 'sizeBytes'>, manifestMaxBytes: number): number {
  if (candidate.sizeBytes === undefined) return manifestMaxBytes;
  const tolerance = Math.max(64 * 1024, Math.ceil(candidate.sizeBytes * 0.05));
  return Math.min(manifestMaxBytes, candidate.sizeBytes + tolerance);
}

export interface JobRunnerDeps {
  store: ArtifactStore;
  workspace: SessionWorkspace;
  limiters: SourceLimiters;
  events: EventHub;
  clock: Clock;
  random: () => number;
  log: Logger;
  physicalUrl: PhysicalUrl;
}

/** What the job runs with: the approved plan's candidate and the source's manifest. */
export interface JobInput {
  job: DownloadJobRecord;
  candidate: PlannedCandidate;
  manifest: SourceManifest;
  signal: AbortSignal;
  /** Aborted when the gateway stops: the job is left as last saved (the next start marks it interrupted). */
  stopping?: AbortSignal;
  onProgress?: (bytesDone: number, totalBytes: number | null) => void;
}

/** How a job ended: its final record, and the error when it did not complete. */
export interface JobEnding {
  job: DownloadJobRecord;
  error?: GatewayError;
}

/** Errors after which the part file is worthless (kept otherwise, so a retry resumes from it). */
const DISCARD_REASONS = new Set(['checksum_mismatch', 'size_limit', 'not_pdf', 'html_page']);

/**
 * Runs one DownloadJob to a terminal state and resolves with its final record: each transition is
 * persisted (with the bytes done) and published on the event hub; the part file is committed
 * (fsync + atomic rename, 0400) on success, discarded on cancellation or a bad checksum or size,
 * and kept after other failures so a retry resumes from it. Never rejects: a failure comes back as
 * the failed (or cancelled) job with the error that ended it.
 */
export async function runDownloadJob(deps: JobRunnerDeps, input: JobInput): Promise<JobEnding> {
  const { job, candidate, manifest } = input;
  const update = async (patch: Omit<DownloadJobPatch, 'updatedAt'>): Promise<DownloadJobRecord> => {
    const updated = (await deps.store.updateJob(job.id, { ...patch, updatedAt: new Date(deps.clock.now()).toISOString() }))!;
    deps.events.publish('download.updated', job.sessionId, updated);
    return updated;
  };
  const progressWriter = jobProgressWriter(deps, job.id);
  const observer: DownloadObserver = {
    transition: async (state, facts) => {
      progressWriter.forget();
      await update({ state, bytesDone: facts.bytesDone, totalBytes: facts.totalBytes, attempts: job.attempts + facts.attempts, ...(facts.error ? { errorMessage: facts.error.message } : {}) });
    },
    progress: (bytesDone, totalBytes) => {
      input.onProgress?.(bytesDone, totalBytes);
      deps.events.publish('download.progress', job.sessionId, { jobId: job.id, bytesDone, totalBytes });
      progressWriter.note(bytesDone, totalBytes);
    },
  };
  let part;
  try {
    part = await deps.workspace.openPartial(job.sessionId, job.destinationPath);
  } catch (error) {
    progressWriter.stop();
    return fail(update, GatewayError.from(error), deps.clock);
  }
  try {
    const limiter = deps.limiters.limiterFor(manifest.id, manifest.limits);
    const outcome = await runDownload(
      { url: job.url, allowedDomains: manifest.allowedDomains, maxBytes: sizeLimitFor(candidate, manifest.limits.maxDownloadBytes), ...(candidate.checksum ? { checksum: candidate.checksum } : {}) },
      part,
      {
        clock: deps.clock, random: deps.random, physicalUrl: deps.physicalUrl, retry: manifest.retry,
        stallTimeoutMs: manifest.limits.timeoutSeconds * 1000, slot: (signal) => limiter.acquire(signal),
      },
      observer,
      input.signal,
    ).finally(() => progressWriter.stop());
    await requireExpectedContent(part, { mediaType: candidate.mediaType, verified: candidate.checksum !== undefined });
    await part.close();
    const file = await deps.workspace.commitPartial(job.sessionId, job.destinationPath);
    const endedAt = new Date(deps.clock.now()).toISOString();
    deps.events.publish('workspace.file', job.sessionId, { path: file.path, sizeBytes: file.sizeBytes, jobId: job.id });
    return { job: await update({ state: 'completed', bytesDone: file.sizeBytes, totalBytes: file.sizeBytes, sha256: outcome.sha256, errorCode: null, errorMessage: null, endedAt }) };
  } catch (thrown) {
    await part.close().catch(() => {});
    const error = GatewayError.from(thrown);
    if (input.stopping?.aborted) return { job, error };
    const reason = (error.details as { reason?: string } | undefined)?.reason;
    if (error.code === 'cancelled' || DISCARD_REASONS.has(reason ?? '')) await deps.workspace.discardPartial(job.sessionId, job.destinationPath).catch(() => {});
    const bytesDone = error.code === 'cancelled' || DISCARD_REASONS.has(reason ?? '') ? 0 : part.sizeBytes;
    return fail(update, error, deps.clock, bytesDone);
  }
}

async function fail(
  update: (patch: Omit<DownloadJobPatch, 'updatedAt'>) => Promise<DownloadJobRecord>,
  error: GatewayError,
  clock: Clock,
  bytesDone?: number,
): Promise<JobEnding> {
  const job = await update({
    state: error.code === 'cancelled' ? 'cancelled' : 'failed',
    errorCode: error.code,
    errorMessage: error.message,
    ...(bytesDone !== undefined ? { bytesDone } : {}),
    endedAt: new Date(clock.now()).toISOString(),
  });
  return { job, error };
}
