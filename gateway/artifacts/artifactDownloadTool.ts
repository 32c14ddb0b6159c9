import type { NativeTool } from '../broker/index.js';
import type { ArtifactDownloads } from './artifactDownloads.js';

/** The tool's name (GATEWAY.md §3): listed beside the sources' tools, whatever the tool prefix. */
export const ARTIFACT_DOWNLOAD_TOOL = 'artifact_download';

const inputSchema = {
  type: 'object',
  properties: {
    mcpInvocationId: { type: 'string', minLength: 1, maxLength: 200, description: 'The invocationId of the search or fetch result that offered the candidate.' },
    candidateId: { type: 'string', minLength: 1, maxLength: 200, description: 'The id of one of that result\'s "artifacts".' },
    destinationPath: {
      type: 'string', minLength: 1, maxLength: 1024,
      description: 'Where to save it, relative to this session\'s workspace (default downloads/<sourceId>/<filename>).',
    },
  },
  required: ['mcpInvocationId', 'candidateId'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    status: { const: 'completed' },
    candidateId: { type: 'string' },
    planId: { type: 'string' },
    jobId: { type: 'string' },
    finalPath: { type: 'string', description: 'Session-relative path of the file.' },
    resourceUri: { type: 'string', description: 'Read the file with resources/read on this URI.' },
    bytesDownloaded: { type: 'integer', minimum: 0 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    actualChecksum: { type: 'string' },
    mediaType: { type: 'string' },
    kind: { type: 'string' },
    sourceId: { type: 'string' },
    sourceRecordId: { type: 'string' },
    license: { type: 'string' },
    attempts: { type: 'integer', minimum: 0 },
    invocationId: { type: 'string' },
  },
  required: ['status', 'candidateId', 'planId', 'jobId', 'finalPath', 'resourceUri', 'bytesDownloaded', 'sha256', 'mediaType', 'sourceId', 'sourceRecordId', 'license'],
  additionalProperties: false,
} as const;

/** `artifact_download` as a native tool of the broker. */
export function artifactDownloadTool(downloads: ArtifactDownloads): NativeTool {
  return {
    name: ARTIFACT_DOWNLOAD_TOOL,
    title: 'Download an artifact',
    description:
      'Downloads one candidate file ("artifacts" of a search or fetch result) into this session\'s workspace, after the user allows it. ' +
      'Pass the result\'s invocationId and the candidate\'s id; the URL always comes from that stored result. Returns when the download ' +
      'completed (path, size, sha256) or failed. Several downloads may run in one turn. Nothing is ever downloaded by a search itself.',
    inputSchema: inputSchema as unknown as NativeTool['inputSchema'],
    outputSchema: outputSchema as unknown as NativeTool['outputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (call) => {
      const args = call.arguments as { mcpInvocationId: string; candidateId: string; destinationPath?: string };
      const result = await downloads.download({
        session: call.session, invocationId: call.invocationId, origin: call.origin, mcpInvocationId: args.mcpInvocationId,
        candidateId: args.candidateId, signal: call.signal, deadline: call.deadline,
        ...(args.destinationPath !== undefined ? { destinationPath: args.destinationPath } : {}),
        ...(call.askClient ? { askClient: call.askClient } : {}),
        ...(call.onProgress ? { onProgress: call.onProgress } : {}),
        onSource: (sourceId) => call.trail.nativeSource(sourceId),
        onAuthorized: (authorizationId) => call.trail.authorized(authorizationId),
      });
      return { ...result };
    },
  };
}
