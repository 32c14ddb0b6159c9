import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { PermissionDecision, PermissionRequestRecord } from '../core/index.js';

/**
 * Asks the human inside the agent's own MCP client. Resolves with their decision, or undefined when
 * the client gave none (dismissed the form, failed); `signal` withdraws the question because the
 * wait ended otherwise first (a decision elsewhere, the timeout, the call cancelled). It is never
 * aborted once the client has answered (see askWhileOpen).
 */
export type ClientApprover = (request: PermissionRequestRecord, signal: AbortSignal) => Promise<PermissionDecision | undefined>;

const CHOICES: Array<{ const: PermissionDecision; title: string }> = [
  { const: 'allow_once', title: 'Allow once' },
  { const: 'allow_matching', title: 'Allow same type (this session)' },
  { const: 'deny', title: 'Deny' },
];

/**
 * The elicitation form for one request: one required choice, allow once / allow same type / deny.
 * It names the tool as the agent called it first: a custom tool's normalized resource is its stable
 * id (`mcp__custom-<hex>__…`), which the human has never seen.
 */
export function elicitationForm(request: PermissionRequestRecord): ElicitRequestFormParams {
  return {
    mode: 'form',
    message:
      `scigate needs your permission: ${request.toolName} (${request.action} ${request.resource})\n` +
      `Arguments: ${request.argumentsPreview.slice(0, 500)}\n` +
      `(request ${request.id}; it can also be decided in the scigate admin page)`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: { type: 'string', title: 'Decision', description: 'Allow this call?', oneOf: CHOICES },
      },
      required: ['decision'],
    },
  };
}

/**
 * The decision an elicitation answer carries: `accept` with a valid choice is that choice, an
 * explicit `decline` is a deny, and `cancel` (dismissed) is no decision — the request keeps waiting
 * for the admin path, or ends at once where there is none (`scigate stdio` without --admin-port).
 */
export function decisionFromElicitation(result: ElicitResult): PermissionDecision | undefined {
  if (result.action === 'decline') return 'deny';
  if (result.action !== 'accept') return undefined;
  const chosen = result.content?.decision;
  return CHOICES.find((c) => c.const === chosen)?.const;
}

/**
 * Asks with a signal of the question's own that follows `stop` only while the question is open. The
 * gate aborts `stop` whenever a wait ends, and the SDK keeps its abort listener after the answer
 * came: passing `stop` itself would cancel (notifications/cancelled) a request the client already
 * finished, which the MCP spec forbids. A question still open is withdrawn as before.
 */
export async function askWhileOpen(ask: ClientApprover, request: PermissionRequestRecord, stop: AbortSignal): Promise<PermissionDecision | undefined> {
  const question = new AbortController();
  const withdraw = () => question.abort(stop.reason);
  if (stop.aborted) withdraw();
  else stop.addEventListener('abort', withdraw, { once: true });
  try {
    return await ask(request, question.signal);
  } finally {
    stop.removeEventListener('abort', withdraw);
  }
}
