/** Deepest nesting the gateway accepts in tool arguments; real tool inputs are a few levels deep. */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Deepest nesting the gateway accepts in what an upstream server answers: far deeper than any real
 * record, shallow enough that the recursive code a result passes through (JSON.stringify, the
 * canonical hash, Ajv) stays well inside the stack.
 */
export const MAX_RESULT_DEPTH = 256;

/**
 * Whether a parsed JSON value nests deeper than `limit`, found without recursion, so a hostile
 * payload cannot overflow the stack of the code that checks it (or of the code that would hash it).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
