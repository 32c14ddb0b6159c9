import { GatewayError, type SecretScrubber } from '../core/index.js';
import type { ToolOutcome } from './toolCall.js';

/** The outcome with secrets replaced; the raw answer is rescanned only when the result held one (custom results copy it). */
export function scrubbedOutcome(secrets: SecretScrubber, outcome: ToolOutcome): ToolOutcome {
  if (outcome.native) {
    const text = JSON.stringify(outcome.native);
    const scrubbed = secrets.scrub(text);
    return scrubbed === text ? outcome : { ...outcome, native: JSON.parse(scrubbed) as ToolOutcome['native'] };
  }
  if (!outcome.result) throw new Error('the pipeline returned no normalized result');
  const text = JSON.stringify(outcome.result);
  const scrubbed = secrets.scrub(text);
  if (scrubbed === text) return outcome;
  return { ...outcome, result: JSON.parse(scrubbed) as ToolOutcome['result'], raw: secrets.scrubValue(outcome.raw) };
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
