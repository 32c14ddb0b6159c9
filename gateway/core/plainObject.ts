/** A JSON object: not null, not an array (what a request body, a result's structuredContent or _meta must be). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
