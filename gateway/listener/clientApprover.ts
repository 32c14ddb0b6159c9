import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { decisionFromElicitation, elicitationForm, type ClientApprover } from '../permissions/index.js';

/** Longest timer Node accepts: the gate's approval timeout, not the SDK, bounds the question. */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;

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
    const result = await extra.sendRequest({ method: 'elicitation/create', params: elicitationForm(request) }, ElicitResultSchema, {
      signal,
      timeout: NO_SDK_TIMEOUT_MS,
    });
    return decisionFromElicitation(result);
  };
}
