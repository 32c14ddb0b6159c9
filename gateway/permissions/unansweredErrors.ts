import { GatewayError } from '../core/index.js';

/** The part of an AuthorizeInput these messages read (declared here: the gate imports this file). */
interface UnansweredCall {
  sessionId: string;
  toolName: string;
}

/*
 * These messages go to the agent. They name the tool as the agent called it: a custom tool's
 * resource is its internal stable id (`mcp__custom-<hex>__…`), which the agent never saw; the
 * PermissionRequest in the admin API keeps the action and resource.
 */

/** Waiting would only end in the client's own timeout: say at once how the user can approve. */
export function nobodyToAsk(input: UnansweredCall): GatewayError {
  return new GatewayError(
    'permission_denied',
    `Nobody can approve this call to ${input.toolName}: this MCP client does not support elicitation and scigate runs ` +
      'without an admin API. Restart scigate stdio with --admin-port <port> and approve it on the admin page, or set the Session\'s ' +
      'approval mode to always_allow there (PATCH /api/sessions/<id> {"approvalMode":"always_allow"}); then call the tool again.',
    { details: { sessionId: input.sessionId } },
  );
}

/**
 * The question in the client ended without a decision and no admin API exists to decide instead:
 * waiting on would only end in the approval timeout, long after the client gave up on the call.
 */
export function dismissedWithNobodyElse(input: UnansweredCall, requestId: string): GatewayError {
  return nobodyElse(input, requestId, `The user dismissed the approval question for ${input.toolName} without deciding`,
    'Ask the user to choose Allow when the question appears and call the tool again');
}

/** The same when asking in the client failed (it refused or could not show the question). */
export function failedWithNobodyElse(input: UnansweredCall, requestId: string, failure: unknown): GatewayError {
  return nobodyElse(input, requestId, `Asking the user to approve this call to ${input.toolName} failed in the MCP client (${reasonOf(failure)})`,
    'Call the tool again to be asked again');
}

/** The same when the user decided in the client but scigate could not record the decision (its store refused the write). */
export function unrecordedWithNobodyElse(input: UnansweredCall, requestId: string, failure: unknown): GatewayError {
  return nobodyElse(input, requestId, `The user's decision on this call to ${input.toolName} could not be recorded (${reasonOf(failure)})`,
    'Call the tool again once scigate can write to its data directory (its log says what failed)');
}

/** What went wrong in the client's question, that nobody else can decide, and what to do next. */
function nobodyElse(input: UnansweredCall, requestId: string, what: string, next: string): GatewayError {
  return new GatewayError(
    'permission_denied',
    `${what}, and nobody else can decide (scigate runs without an admin API); the action did not run. ${next}, or restart ` +
      'scigate stdio with --admin-port <port> to decide on the admin page.',
    { details: { sessionId: input.sessionId, requestId } },
  );
}

const reasonOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)).slice(0, 200);

/** Nobody decided within the approval timeout; not retryable by itself, since it needs the user first. */
export function expiredUnanswered(input: UnansweredCall, requestId: string, approvalTimeoutMs: number): GatewayError {
  const seconds = Math.round(approvalTimeoutMs / 1000);
  return new GatewayError(
    'permission_expired',
    `Nobody decided within ${seconds} s whether this call to ${input.toolName} may run (permission request ${requestId}); the action ` +
      'did not run. Ask the user to decide it when asked, on the scigate admin page or in their MCP client, then call the tool again.',
    { details: { sessionId: input.sessionId, requestId } },
  );
}
