import type { McpToolResult, SourceManifest } from '../../catalog/index.js';
import { GatewayError, type Cas, type InvocationRecord, type InvocationStore, type PlannedCandidate, type SessionRecord } from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';
import { checkDownloadUrl } from './downloadUrls.js';

export interface OfferedCandidateDeps {
  invocations: InvocationStore;
  cas: Cas;
  registry: SourceRegistry;
}

/** A candidate a governed Invocation of this Session really offered, with its source's manifest. */
export interface OfferedCandidate {
  candidate: PlannedCandidate;
  invocation: InvocationRecord;
  manifest: SourceManifest;
}

/**
 * Reads the candidate from the stored (CAS) result of a successful governed Invocation of the same
 * Session — never from the arguments — and re-checks its identity: the candidate's source is the
 * Invocation's, its record is one of that result's records, its URL is https on the source's
 * current allowedDomains, and it names a license. An unknown or foreign id is `not_found`; a
 * candidate that fails a check is `permission_denied`. Nothing is fetched either way.
 */
export async function findOfferedCandidate(deps: OfferedCandidateDeps, session: SessionRecord, mcpInvocationId: string, candidateId: string): Promise<OfferedCandidate> {
  const invocation = await deps.invocations.get(mcpInvocationId);
  if (!invocation || invocation.sessionId !== session.id) {
    throw new GatewayError('not_found', `No invocation ${mcpInvocationId.slice(0, 80)} in this session; pass the invocationId of a search or fetch result you got here.`, {
      details: { field: 'mcpInvocationId' },
    });
  }
  if (invocation.status !== 'ok' || !invocation.casHash || !invocation.sourceId || !invocation.toolId) {
    throw new GatewayError('not_found', `Invocation ${invocation.id} did not return a successful source result, so it offers no candidates.`, {
      details: { field: 'mcpInvocationId' },
    });
  }
  const stored = await deps.cas.get(invocation.casHash);
  const result = stored ? (safeJson(stored.toString('utf8')) as Partial<McpToolResult> | undefined) : undefined;
  const candidate = Array.isArray(result?.artifacts) ? result.artifacts.find((c) => c?.id === candidateId) : undefined;
  if (!result || !candidate) {
    throw new GatewayError('not_found', `Invocation ${invocation.id} offered no candidate ${candidateId.slice(0, 80)}; use a candidate id from that result's "artifacts".`, {
      details: { field: 'candidateId' },
    });
  }
  const denied = (why: string) =>
    new GatewayError('permission_denied', `Candidate ${candidateId.slice(0, 80)} was refused: ${why}. Nothing was downloaded; search again for a current candidate.`, {
      details: { field: 'candidateId' },
    });
  if (candidate.sourceId !== invocation.sourceId || result.sourceId !== invocation.sourceId) throw denied(`it names source ${String(candidate.sourceId).slice(0, 40)}, but the invocation queried ${invocation.sourceId}`);
  const records = Array.isArray(result.records) ? result.records : [];
  if (!records.some((r) => r?.sourceRecordId === candidate.sourceRecordId && r?.sourceId === candidate.sourceId)) {
    throw denied(`its record ${String(candidate.sourceRecordId).slice(0, 80)} is not among that result's records`);
  }
  const manifest = deps.registry.get(invocation.sourceId)?.manifest;
  if (!manifest) throw new GatewayError('tool_unavailable', `The source ${invocation.sourceId} is no longer in the catalog; its candidates cannot be downloaded.`);
  try {
    checkDownloadUrl(String(candidate.url), manifest.allowedDomains, 'candidate URL');
  } catch (error) {
    throw denied((error as Error).message.replace(/\.$/, ''));
  }
  if (typeof candidate.license !== 'string' || candidate.license.trim() === '') throw denied('it names no license');
  if (typeof candidate.filename !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(candidate.filename)) throw denied('its filename is not a safe name');
  return { candidate: candidate as PlannedCandidate, invocation, manifest };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
