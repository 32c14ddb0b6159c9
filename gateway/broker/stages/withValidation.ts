import { assertValid } from '../../registry/index.js';
import { resolvedTool, type Stage } from '../toolCall.js';

/** Checks the arguments against the tool's input schema (compiled once, at discovery). */
export function withValidation(): Stage {
  return (next) => async (call) => {
    assertValid(resolvedTool(call).validate, call.arguments);
    return next(call);
  };
}
