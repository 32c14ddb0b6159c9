import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, EmptyResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { decisionFromElicitation, elicitationForm, type ClientApprover } from '../permissions/index.js';

/** Longest timer Node accepts: the gate's approval timeout, not the SDK, bounds the question. */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;
/** How long the ping that uses up request id 0 may take before the question is asked anyway. */
const PRIMING_PING_TIMEOUT_MS = 5_000;

/** Per session: the ping that took request id 0, so that no question is ever request 0. */
const primed = new WeakMap<Server, Promise<void>>();

/**
 * The ClientApprover of one tool call: asks through MCP form elicitation on the call's own stream
 * when config allows it and the client declared the capability; otherwise undefined, and the
 * request waits for the admin API alone.
 */
export function clientApprover(
  server: Server,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  enabled: boolean,
): ClientApprover | undefined {
  if (!enabled || !server.getClientCapabilities()?.elicitation?.form) return undefined;
  return async (request, signal) => {
    await primeRequestIds(server, extra);
    const result = await extra.sendRequest({ method: 'elicitation/create', params: elicitationForm(request) }, ElicitResultSchema, {
      signal,
      timeout: NO_SDK_TIMEOUT_MS,
    });
    return decisionFromElicitation(result);
  };
}

/**
 * SDK clients ignore `notifications/cancelled` for request id 0 (a falsy-id check), so a question
 * sent as a session's first server request could never be withdrawn. A ping, answered by every
 * MCP client, takes id 0 first; on the call's own stream, so it also reaches HTTP clients.
 */
function primeRequestIds(server: Server, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<void> {
  let ping = primed.get(server);
  if (!ping) {
    ping = extra
      .sendRequest({ method: 'ping' }, EmptyResultSchema, { timeout: PRIMING_PING_TIMEOUT_MS })
      .then(() => undefined, () => undefined);
    primed.set(server, ping);
  }
  return ping;
}
