import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

// Loaded on the first pattern compiled, as Ajv itself is: most commands never compile one.
const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;
const re2 = () => (engine ??= (require('re2js') as typeof import('re2js')).RE2JS);

/**
 * The regular-expression engine of every JSON Schema the gateway checks against data (`pattern`,
 * `patternProperties`; Ajv's `code.regExp` option): RE2, whose matching time grows linearly with
 * the input, instead of the backtracking RegExp. Custom servers write their own input and output
 * schemas, and one pattern such as `^(a+)+$` against 30 characters held the event loop for
 * seconds: every session stalled and no timeout could fire. RE2 has no backreferences or
 * lookahead; a pattern that needs them does not compile, and its schema is handled like any schema
 * that does not compile (a custom server's tool is withheld, saying why).
 */
export const linearRegExp = Object.assign(compileLinear, {
  // What Ajv would write for this engine in standalone code, which the gateway never generates.
  code: 'linearRegExp',
});

function compileLinear(pattern: string, flags: string): { test(input: string): boolean; toString(): string } {
  let compiled: RE2JS;
  try {
    compiled = re2().compile(re2().translateRegExp(pattern));
  } catch (error) {
    throw new Error(
      `the pattern ${JSON.stringify(pattern.slice(0, 100))} needs a regular-expression feature scigate does not evaluate ` +
        `(${error instanceof Error ? error.message : String(error)}): backreferences and lookahead need a backtracking engine, which one input can stall`,
    );
  }
  // Ajv keys its compiled patterns by this text: two patterns must never share one.
  return { test: (input) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
}
