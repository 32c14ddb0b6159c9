import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** A source file, its path relative to the repository root. */
export interface SourceFile {
  path: string;
  text: string;
}

/** One import edge as written in a file. */
export interface ImportEdge {
  from: string;
  /** A repository path (`gateway/core/index.ts`) for relative specifiers, the package name otherwise. */
  to: string;
  kind: 'static' | 'type' | 'dynamic';
}

// `import … from '…'` and `export … from '…'`, across lines; `[^;]*?` stops at the statement's end.
const FROM_CLAUSE = /^\s*(import|export)\s+([^;]*?)\s*from\s*'([^']+)'/gm;
const SIDE_EFFECT = /^\s*import\s+'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

/** True when a clause such as `type { A }` or `{ type A, type B }` names types only (erased by tsc). */
function typeOnly(clause: string): boolean {
  if (/^type\b/.test(clause)) return true;
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named) return false;
  const names = named[1]!.split(',').map((n) => n.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function target(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  return normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts');
}

/** Every import edge of a file: static, type-only and dynamic `import('…')`. */
export function importsOf(file: SourceFile): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of file.text.matchAll(FROM_CLAUSE)) {
    edges.push({ from: file.path, to: target(file.path, m[3]!), kind: typeOnly(m[2]!) ? 'type' : 'static' });
  }
  for (const m of file.text.matchAll(SIDE_EFFECT)) edges.push({ from: file.path, to: target(file.path, m[1]!), kind: 'static' });
  for (const m of file.text.matchAll(DYNAMIC)) edges.push({ from: file.path, to: target(file.path, m[1]!), kind: 'dynamic' });
  return edges;
}

/** Import cycles between files (type-only edges included: they tie modules together just the same). */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.to.endsWith('.ts')) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Files and packages loaded when `entry` is imported: static edges only (types are erased, dynamic imports wait). */
export function staticClosure(entry: string, edges: ImportEdge[]): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const e of edges) {
      if (e.from !== file || e.kind !== 'static' || seen.has(e.to)) continue;
      seen.add(e.to);
      if (e.to.endsWith('.ts')) queue.push(e.to);
    }
  }
  return seen;
}

/** The `.ts` files under `dir` of the repository at `root`. */
export function sourceFiles(root: string, dir: string): SourceFile[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
    return path.endsWith('.ts') ? [{ path: relative('.', path), text: readFileSync(join(root, path), 'utf8') }] : [];
  });
}
