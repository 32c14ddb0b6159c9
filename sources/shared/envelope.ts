import type { SourceManifest } from '../../catalog/index.js';
import type { ArtifactCandidate, JsonValue, McpRecord, McpToolResult } from '../../catalog/index.js';
import type { SourceDeps } from './sourceDefinition.js';

export interface EnvelopeParts {
  records: McpRecord[];
  artifacts?: ArtifactCandidate[];
  warnings?: string[];
  /** A part of the answer failed in passing (a warning says which): the result is marked `partial` and never cached. */
  partial?: boolean;
  data?: JsonValue;
}

/** Wraps a tool's records in the McpToolResult envelope with the manifest's identity, license and attribution. */
export function envelope(manifest: SourceManifest, toolId: string, deps: SourceDeps, parts: EnvelopeParts): McpToolResult {
  return {
    records: parts.records,
    ...(parts.artifacts && parts.artifacts.length > 0 ? { artifacts: parts.artifacts } : {}),
    warnings: parts.warnings ?? [],
    ...(parts.partial ? { partial: true as const } : {}),
    ...(parts.data !== undefined ? { data: parts.data } : {}),
    attribution: manifest.attribution,
    license: manifest.license,
    retrievedAt: deps.now().toISOString(),
    sourceId: manifest.id,
    sourceVersion: manifest.version,
    toolId,
    untrusted: true,
  };
}
