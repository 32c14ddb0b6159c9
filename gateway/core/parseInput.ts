import type { ZodType } from 'zod';
import { GatewayError } from './gatewayError.js';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  issues?: Issue[];
  errors?: Issue[][];
}

/**
 * Parses input at a boundary (request body, config file) with a zod schema; a failure is
 * `invalid_input` whose message starts with the dotted field path, e.g. `timeoutSeconds: …`.
 */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { field, message } = describeIssue(parsed.error.issues[0] as unknown as Issue);
  throw new GatewayError('invalid_input', `${field || '(body)'}: ${message}`, { details: { field } });
}

/** The field path and a readable message of one zod issue, looking into unions and record keys. */
export function describeIssue(issue: Issue, prefix: PropertyKey[] = []): { field: string; message: string } {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    return { field: joinPath([...path, issue.keys[0]!]), message: 'is not a known field' };
  }
  if (issue.code === 'invalid_key' && issue.issues?.[0]) {
    return { field: joinPath(path), message: issue.issues[0].message };
  }
  const branch = issue.code === 'invalid_union' ? deepestBranch(issue.errors ?? []) : undefined;
  if (branch) return describeIssue(branch, path);
  return { field: joinPath(path), message: issue.message };
}

/** The union branch that got furthest into the input: its first issue has the longest path. */
function deepestBranch(branches: Issue[][]): Issue | undefined {
  const firsts = branches.map((b) => b[0]).filter((i): i is Issue => i !== undefined);
  return firsts.sort((a, b) => b.path.length - a.path.length)[0];
}

function joinPath(path: PropertyKey[]): string {
  return path.map(String).join('.');
}
