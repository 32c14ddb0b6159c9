import { GatewayError, withFields, type SecretScrubber } from '../core/index.js';
import type { ToolOutcome } from './toolCall.js';

/**
 * The outcome with secrets replaced, and its result (a native tool's, or the normalized one) as the
 * scrubbed JSON text the audit stores: serialized once for both. The raw answer is rescanned only
 * when the result held a secret (custom results copy it).
 */
export function scrubbedOutcome(secrets: SecretScrubber, outcome: ToolOutcome): { outcome: ToolOutcome; json: string } {
  if (outcome.native) {
    const text = JSON.stringify(outcome.native);
    const json = secrets.scrub(text);
    return { outcome: json === text ? outcome : withFields(outcome, { native: JSON.parse(json) as ToolOutcome['native'] }), json };
  }
  if (!outcome.result) throw new Error('the pipeline returned no normalized result');
  const text = JSON.stringify(outcome.result);
  const json = secrets.scrub(text);
  if (json === text) return { outcome, json };
  return { outcome: withFields(outcome, { result: JSON.parse(json) as ToolOutcome['result'], raw: secrets.scrubValue(outcome.raw) }), json };
}

/** The same error with its message and details scrubbed (messages quote upstream text). */
export function scrubbedError(secrets: SecretScrubber, error: GatewayError): GatewayError {
  const message = secrets.scrub(error.message);
  const details = error.details === undefined ? undefined : secrets.scrubValue(error.details);
  if (message === error.message && details === error.details) return error;
  const { code, retryable, retryAfterMs, attempts } = error;
  return new GatewayError(code, message, {
    retryable,
    cause: error.cause,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
    ...(details ? { details } : {}),
  });
}
