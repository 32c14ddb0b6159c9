import type { ArtifactCandidate } from '../../catalog/index.js';

/** Artifact plans and download jobs (seed §6.2, §9; GATEWAY.md §8), persisted for audit and resume. */

/** A plan is recorded progress, never a gate of its own: permission decides (seed §8). */
export type ArtifactPlanStatus = 'awaiting_approval' | 'approved' | 'denied' | 'expired';

/** The download candidate as the source offered it (GATEWAY.md §11), copied from the Invocation's CAS result. */
export type PlannedCandidate = ArtifactCandidate;

/** Created before anything is fetched; references the authorization that decided it. */
export interface ArtifactPlanRecord {
  id: string;
  sessionId: string;
  projectId: string;
  /** The `artifact_download` call (or admin request) that made the plan. */
  invocationId: string;
  /** The governed search/fetch Invocation whose stored result offered the candidate. */
  sourceInvocationId: string;
  candidateId: string;
  sourceId: string;
  sourceRecordId: string;
  candidate: PlannedCandidate;
  /** Session-relative destination. */
  destinationPath: string;
  status: ArtifactPlanStatus;
  authorizationId: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export type DownloadJobState = 'queued' | 'running' | 'retrying' | 'verifying' | 'completed' | 'failed' | 'cancelled';

/** Terminal states: a job in one of these never changes again (except a retry, which starts it over). */
export const TERMINAL_JOB_STATES: readonly DownloadJobState[] = ['completed', 'failed', 'cancelled'];

/** One download of one approved plan; every transition is persisted with the bytes done so far. */
export interface DownloadJobRecord {
  id: string;
  planId: string;
  sessionId: string;
  projectId: string;
  sourceId: string;
  sourceRecordId: string;
  candidateId: string;
  url: string;
  destinationPath: string;
  mediaType: string;
  license: string;
  state: DownloadJobState;
  bytesDone: number;
  /** Known from Content-Length / Content-Range or the candidate; null when unknown. */
  totalBytes: number | null;
  /** sha256 hex of the completed file (always computed). */
  sha256: string | null;
  /** `algorithm:value` of the candidate's checksum when it had one, verified before completion. */
  expectedChecksum: string | null;
  attempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  authorizationId: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/** What a job's transition may change. */
export type DownloadJobPatch = Partial<
  Pick<DownloadJobRecord, 'state' | 'bytesDone' | 'totalBytes' | 'sha256' | 'attempts' | 'errorCode' | 'errorMessage' | 'endedAt' | 'destinationPath'>
> & { updatedAt: string };

/** What deciding a plan changes. */
export type ArtifactPlanPatch = Pick<ArtifactPlanRecord, 'status' | 'authorizationId' | 'decidedAt'>;
