import type { z } from 'zod';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  expected?: string;
  issues?: Issue[];
  errors?: Issue[][];
}

/**
 * The field path and a readable message of a zod error's first issue, looking into unions and
 * record keys: one wording for every boundary (request bodies, config files, manifests, provider data).
 */
export function describeZodError(error: z.ZodError): { field: string; message: string } {
  return describeIssue(error.issues[0] as unknown as Issue);
}

function describeIssue(issue: Issue, prefix: PropertyKey[] = []): { field: string; message: string } {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    return { field: joinPath([...path, issue.keys[0]!]), message: 'is not a known field' };
  }
  if (issue.code === 'invalid_key' && issue.issues?.[0]) {
    return { field: joinPath(path), message: issue.issues[0].message };
  }
  const types = issue.code === 'invalid_union' ? alternativeTypes(issue.errors ?? []) : undefined;
  if (types) return { field: joinPath(path), message: types };
  const branch = issue.code === 'invalid_union' ? deepestBranch(issue.errors ?? []) : undefined;
  if (branch) return describeIssue(branch, path);
  return { field: joinPath(path), message: issue.message };
}

/**
 * A union of types at one spot (a string or an integer) refused every branch there: all its
 * types in one message, not only the first branch's ("expected string, received number").
 */
function alternativeTypes(branches: Issue[][]): string | undefined {
  const firsts = branches.map((b) => b[0]);
  if (firsts.length < 2 || !firsts.every((i) => i?.code === 'invalid_type' && i.path.length === 0 && i.expected)) return undefined;
  const received = /received (\w+)/.exec(firsts[0]!.message)?.[1];
  return `Invalid input: expected ${[...new Set(firsts.map((i) => i!.expected))].join(' or ')}${received ? `, received ${received}` : ''}`;
}

/** The union branch that got furthest into the input: its first issue has the longest path. */
function deepestBranch(branches: Issue[][]): Issue | undefined {
  const firsts = branches.map((b) => b[0]).filter((i): i is Issue => i !== undefined);
  return firsts.sort((a, b) => b.path.length - a.path.length)[0];
}

function joinPath(path: PropertyKey[]): string {
  return path.map(String).join('.');
}
