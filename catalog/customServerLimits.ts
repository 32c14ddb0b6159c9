import { z } from 'zod';

/**
 * Governance defaults of every custom server (seed §5.4): one call at a time, 8 queued for at most
 * 20 s, results up to 5,000,000 bytes, no spacing between calls. An admin may change each one per
 * server (`limits` in its config); limits are keyed by the server id and shared by all Sessions.
 */
export const CUSTOM_SOURCE_LIMITS = {
  concurrency: 1,
  queueDepth: 8,
  queueTimeoutMs: 20_000,
  maxResponseBytes: 5_000_000,
  minTimeMs: 0,
} as const;

/** Most calls one custom server may run at once. */
export const MAX_CUSTOM_CONCURRENCY = 256;
/** Largest result a custom server may return, in bytes (its messages may be twice this plus 1 MiB). */
export const MAX_CUSTOM_RESPONSE_BYTES = 100_000_000;

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number({ error: `must be a whole number ${what} from ${min} to ${max}` })
    .int(`must be a whole number ${what} from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/**
 * The limits an admin set for one custom server; a field left out keeps its default. Rate is given
 * as `minTimeMs`, the least time between two calls (1000 = one call per second), as for built-ins.
 */
export const customServerLimitsSchema = z
  .object({
    concurrency: wholeNumber('of calls', 1, MAX_CUSTOM_CONCURRENCY),
    queueDepth: wholeNumber('of calls', 0, 10_000),
    queueTimeoutMs: wholeNumber('of milliseconds', 1, 600_000),
    maxResponseBytes: wholeNumber('of bytes', 1024, MAX_CUSTOM_RESPONSE_BYTES),
    minTimeMs: wholeNumber('of milliseconds', 0, 600_000),
  })
  .partial()
  .strict();

export type CustomServerLimits = z.infer<typeof customServerLimitsSchema>;
/** Every limit of a custom server, defaults filled in (what governs its calls and what the API shows). */
export type EffectiveCustomLimits = { -readonly [K in keyof typeof CUSTOM_SOURCE_LIMITS]: number };

/** The limits that govern a server: its own where set, the defaults elsewhere. */
export function effectiveCustomLimits(limits: CustomServerLimits | undefined): EffectiveCustomLimits {
  return { ...CUSTOM_SOURCE_LIMITS, ...limits };
}

/**
 * The saved limits after an edit: `null` restores every default; an object changes only the fields
 * it names (a field set to `null` returns to its default). Undefined when nothing is left to save.
 */
export function mergeCustomLimits(
  current: CustomServerLimits | undefined,
  edit: CustomServerLimitsEdit | null | undefined,
): CustomServerLimits | undefined {
  if (edit === undefined) return current;
  if (edit === null) return undefined;
  const merged: Record<string, number> = { ...current };
  for (const [key, value] of Object.entries(edit)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? (merged as CustomServerLimits) : undefined;
}

/** `limits` in a create or update request: each field a value, or `null` for its default. */
export const customServerLimitsEditSchema = z
  .object({
    concurrency: customServerLimitsSchema.shape.concurrency.unwrap().nullable(),
    queueDepth: customServerLimitsSchema.shape.queueDepth.unwrap().nullable(),
    queueTimeoutMs: customServerLimitsSchema.shape.queueTimeoutMs.unwrap().nullable(),
    maxResponseBytes: customServerLimitsSchema.shape.maxResponseBytes.unwrap().nullable(),
    minTimeMs: customServerLimitsSchema.shape.minTimeMs.unwrap().nullable(),
  })
  .partial()
  .strict();

export type CustomServerLimitsEdit = z.infer<typeof customServerLimitsEditSchema>;
