import type { CustomServerConfig } from './customServerConfig.js';
import { effectiveCustomLimits } from './customServerLimits.js';
import { limitsSchema, retrySchema, type SourceManifest } from './manifest.js';

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
    limits: limitsSchema.parse({ ...effectiveCustomLimits(config.limits), timeoutSeconds: config.timeoutSeconds }),
    cacheTtlMs: 0,
    retry: retrySchema.parse({ attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }),
  };
}
