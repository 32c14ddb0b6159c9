import { z } from 'zod';
import { describeZodError } from './zodIssues.js';

const sourceId = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,30}$/, 'source ids are lower-case letters, digits and dashes (2–31 chars)');
const toolId = z.string().regex(/^[a-z][a-z0-9_]{0,40}$/, 'tool ids are lower-case letters, digits and _');

/** One tool a source offers, as the gateway governs it. */
export const toolManifestSchema = z
  .object({
    id: toolId,
    /** The tool's name on the upstream server (defaults to `id`). */
    upstreamName: z.string().min(1).optional(),
    title: z.string().min(1),
    description: z.string().min(1),
    routingKeywords: z.array(z.string().min(1)).default([]),
    /** Read-only and safe to repeat: cacheable and retried. Custom tools are never idempotent. */
    idempotent: z.boolean(),
    /** Cache lifetime of a result; 0 disables the cache for this tool. */
    cacheTtlMs: z.number().int().min(0).optional(),
  })
  .strict();

/** Per-source governance limits (seed §5.4, GATEWAY.md §4). */
export const limitsSchema = z
  .object({
    maxResponseBytes: z.number().int().positive().default(5_000_000),
    /** Largest file artifact_download fetches from this source (default 2 GiB); a candidate's own size can lower it. */
    maxDownloadBytes: z.number().int().positive().default(2 * 1024 ** 3),
    concurrency: z.number().int().positive().default(1),
    queueDepth: z.number().int().min(0).default(8),
    queueTimeoutMs: z.number().int().positive().default(20_000),
    /** Minimum spacing between two requests (e.g. arXiv: 3000). */
    minTimeMs: z.number().int().min(0).default(0),
    /** Sources naming the same group share one limiter (the NCBI sources share one budget). */
    limitGroup: z.string().min(1).optional(),
    /** Tool timeout per attempt: integer seconds 1–600, default 60. */
    timeoutSeconds: z.number().int().min(1).max(600).default(60),
  })
  .strict();

/** Per-source overrides of the manifest's limits from config (a local mirror needs no 3 s spacing). */
export const limitOverridesSchema = z.record(
  z.string(),
  z
    .object({
      maxResponseBytes: z.number().int().positive().optional(),
      maxDownloadBytes: z.number().int().positive().optional(),
      concurrency: z.number().int().positive().optional(),
      queueDepth: z.number().int().min(0).optional(),
      queueTimeoutMs: z.number().int().positive().optional(),
      minTimeMs: z.number().int().min(0).optional(),
      timeoutSeconds: z.number().int().min(1).max(600).optional(),
    })
    .strict(),
);

export type LimitOverrides = z.infer<typeof limitOverridesSchema>;

export const retrySchema = z
  .object({
    attempts: z.number().int().min(1).max(10).default(3),
    baseDelayMs: z.number().int().min(0).default(500),
    maxDelayMs: z.number().int().min(0).default(30_000),
  })
  .strict();

/** A source as the catalog knows it (seed §4). */
export const sourceManifestSchema = z
  .object({
    id: sourceId,
    displayName: z.string().min(1),
    description: z.string().min(1),
    version: z.string().min(1),
    type: z.enum(['builtin', 'custom']),
    /** The MCP server that provides the tools (for built-ins, the source server of the same id). */
    serverId: z.string().min(1),
    tools: z.array(toolManifestSchema).min(1),
    license: z.string().min(1),
    attribution: z.string().min(1),
    classification: z.enum(['public', 'restricted']).default('public'),
    /** Hosts that candidate URLs may point at (exact host, or `.example.org` for subdomains). */
    allowedDomains: z.array(z.string().min(1)),
    homepage: z.string().url().optional(),
    limits: limitsSchema.default(() => limitsSchema.parse({})),
    cacheTtlMs: z.number().int().min(0).default(0),
    retry: retrySchema.default(() => retrySchema.parse({})),
  })
  .strict();

export type ToolManifest = z.infer<typeof toolManifestSchema>;
export type SourceLimits = z.infer<typeof limitsSchema>;
export type RetryPolicy = z.infer<typeof retrySchema>;
export type SourceManifest = z.infer<typeof sourceManifestSchema>;
export type SourceManifestInput = z.input<typeof sourceManifestSchema>;

/** Parses a manifest, naming the first bad field. */
export function parseSourceManifest(input: unknown): SourceManifest {
  const parsed = sourceManifestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  throw new Error(`Invalid source manifest at ${field || '(root)'}: ${message}`);
}

/** True when `host` is allowed by a manifest's `allowedDomains`. */
export function isHostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  const h = host.toLowerCase();
  return allowedDomains.some((d) => {
    const domain = d.toLowerCase();
    return domain.startsWith('.') ? h.endsWith(domain) || h === domain.slice(1) : h === domain;
  });
}
