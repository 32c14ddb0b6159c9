import { isPlainObject } from './plainObject.js';

/*
 * Fast checks for the two messages every proxied call carries: the client's `tools/call` request
 * and the upstream's result. Each is sufficient, not necessary: a JSON-parsed message that passes
 * also passes the SDK's zod schema for it, so the schema (and its error messages) runs only on
 * anything else. The schemas cost about 25 us per message here (CPU profile of the bench); these
 * checks a fraction of a microsecond.
 */

/** RequestIdSchema and ProgressTokenSchema: a string or an integer (safe integers only here). */
const isIdLike = (value: unknown) => typeof value === 'string' || Number.isSafeInteger(value);

/** RequestMetaSchema without the task relation (a message with one goes to the schema). */
const isPlainMeta = (meta: unknown) =>
  meta === undefined || (isPlainObject(meta) && (meta.progressToken === undefined || isIdLike(meta.progressToken)) && meta['io.modelcontextprotocol/related-task'] === undefined);

/** True only for keys the strict envelope allows (JSONRPCRequestSchema and JSONRPCResultResponseSchema are strict). */
function hasOnlyKeys(message: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in message) if (!allowed.includes(key)) return false;
  return true;
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'] as const;
const RESULT_KEYS = ['jsonrpc', 'id', 'result'] as const;

/** A `tools/call` that JSONRPCRequestSchema with CallToolRequestSchema's params accepts (no task augmentation). */
export function isPlainToolCall(message: unknown): boolean {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call' || !isIdLike(message.id)) return false;
  const params = message.params;
  return (
    hasOnlyKeys(message, REQUEST_KEYS) && isPlainObject(params) && typeof params.name === 'string' && params.task === undefined &&
    (params.arguments === undefined || isPlainObject(params.arguments)) && isPlainMeta(params._meta)
  );
}

/** A result response that JSONRPCResultResponseSchema accepts. */
export function isPlainResultResponse(message: unknown): boolean {
  return (
    isPlainObject(message) && message.jsonrpc === '2.0' && isIdLike(message.id) && isPlainObject(message.result) &&
    isPlainMeta(message.result._meta) && hasOnlyKeys(message, RESULT_KEYS)
  );
}
