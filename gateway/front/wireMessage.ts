import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A message as the JSON text a transport sends. A response that cannot be serialized (a relayed
 * result nested past JSON.stringify's stack, say) becomes a JSON-RPC error for the same id, so the
 * client hears why at once: the SDK only reports a failed send to `onerror`, and the client would
 * wait for an answer that never comes. Any other message that cannot be serialized is dropped
 * (undefined): a notification is not waited for.
 */
export function serializeForWire(message: JSONRPCMessage): string | undefined {
  try {
    return JSON.stringify(message);
  } catch (error) {
    if (!('id' in message) || 'method' in message) return undefined;
    const why = error instanceof Error ? error.message : String(error);
    return JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: ErrorCode.InternalError, message: `scigate could not send this answer (${why}); if it relays a server's result, that result is malformed.` },
    });
  }
}

/**
 * Unsent bytes a transport may hold before it drops notifications. An upstream can report progress
 * or log faster than the agent reads; relayed one by one they would queue in the gateway's memory
 * without bound (200,000 progress notifications to an agent that stopped reading held 280 MB).
 * Progress is advisory and stays increasing when values are skipped; responses and requests are
 * always sent.
 */
export const MAX_QUEUED_NOTIFICATION_BYTES = 1024 * 1024;

/** True for a notification that a transport with `queuedBytes` unsent should drop. */
export function dropUnderBackpressure(message: JSONRPCMessage, queuedBytes: number): boolean {
  return queuedBytes > MAX_QUEUED_NOTIFICATION_BYTES && 'method' in message && !('id' in message);
}
