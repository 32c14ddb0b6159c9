import type { CustomServerConfig } from './customServerConfig.js';
import { limitsSchema, retrySchema, type SourceManifest } from './manifest.js';

/**
 * Governance defaults of every custom server (seed §5.4): one call at a time, 8 queued for at most
 * 20 s, results up to 5,000,000 bytes. Limits are keyed by the server id and shared by all Sessions.
 */
export const CUSTOM_SOURCE_LIMITS = {
  concurrency: 1,
  queueDepth: 8,
  queueTimeoutMs: 20_000,
  maxResponseBytes: 5_000_000,
} as const;

/**
 * The Source manifest of a custom server. Its tools are discovered, not declared, so `tools` stays
 * empty; generic tools are never cached or retried (one attempt) and have no routing keywords.
 */
export function customSourceManifest(config: CustomServerConfig): SourceManifest {
  return {
    id: config.id,
    displayName: config.name,
    description: `Custom MCP server "${config.name}" (${config.transport}); its results are untrusted data.`,
    version: '0',
    type: 'custom',
    serverId: config.id,
    tools: [],
    license: 'unknown',
    attribution: `Custom MCP server "${config.name}"`,
    classification: 'restricted',
    allowedDomains: [],
    limits: limitsSchema.parse({ ...CUSTOM_SOURCE_LIMITS, timeoutSeconds: config.timeoutSeconds }),
    cacheTtlMs: 0,
    retry: retrySchema.parse({ attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }),
  };
}
