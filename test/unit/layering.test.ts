import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { importCycles, importsOf, sourceFiles, staticClosure, type ImportEdge, type SourceFile } from './importGraph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAYERS = ['catalog', 'sources', 'gateway', 'storage', 'admin'] as const;

/**
 * Who may import whom (house style §1), read top to bottom: a module may import only modules listed
 * for it, and every module listed sits above it, so the table is a DAG. Inside gateway/ the order is
 * handshake < core < metrics, front, upstream < registry < permissions, selection < broker < custom, listener < runtime < index
 * (admin's door) < commands (the composition root, which alone sees storage/ and admin/) < main. handshake and
 * config import nothing: they are what `scigate stdio` loads before it answers `initialize`.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  catalog: [],
  sources: ['catalog'],
  'gateway/core': ['catalog'],
  'gateway/handshake': [],
  'gateway/front': ['catalog', 'gateway/core', 'gateway/handshake'],
  storage: ['catalog', 'gateway/core'],
  'gateway/config': [],
  'gateway/sourceSettings': ['catalog', 'sources', 'gateway/core', 'gateway/config'],
  'gateway/metrics': ['catalog', 'gateway/core'],
  'gateway/upstream': ['catalog', 'gateway/core'],
  'gateway/registry': ['catalog', 'sources', 'gateway/core', 'gateway/upstream'],
  'gateway/permissions': ['catalog', 'gateway/core'],
  'gateway/selection': ['catalog', 'gateway/core', 'gateway/registry'],
  'gateway/broker': ['catalog', 'gateway/core', 'gateway/metrics', 'gateway/upstream', 'gateway/registry', 'gateway/permissions', 'gateway/selection'],
  'gateway/custom': ['catalog', 'gateway/core', 'gateway/upstream', 'gateway/registry', 'gateway/selection', 'gateway/broker'],
  // Native tools (artifact_download) ride the broker's audit and limiters; the listener never imports them.
  'gateway/artifacts': ['catalog', 'gateway/core', 'gateway/registry', 'gateway/permissions', 'gateway/broker'],
  'gateway/extraction': ['catalog', 'gateway/core', 'gateway/registry', 'gateway/broker'],
  'gateway/listener': ['catalog', 'gateway/core', 'gateway/front', 'gateway/upstream', 'gateway/registry', 'gateway/permissions', 'gateway/selection', 'gateway/broker'],
  'gateway/runtime': [
    'catalog', 'sources', 'gateway/core', 'gateway/metrics', 'gateway/upstream', 'gateway/registry', 'gateway/permissions', 'gateway/selection',
    'gateway/broker', 'gateway/custom', 'gateway/listener', 'gateway/artifacts', 'gateway/extraction',
  ],
  gateway: [
    'catalog', 'gateway/core', 'gateway/config', 'gateway/sourceSettings', 'gateway/metrics', 'gateway/upstream', 'gateway/registry', 'gateway/permissions', 'gateway/selection',
    'gateway/broker', 'gateway/custom', 'gateway/listener', 'gateway/artifacts', 'gateway/extraction', 'gateway/runtime',
  ],
  admin: ['catalog', 'gateway'],
  // A command imports the gateway folders it needs (stdio: only config and handshake up front;
  // source: the source settings, not the gateway).
  'gateway/commands': ['catalog', 'sources', 'storage', 'gateway/core', 'gateway/config', 'gateway/handshake', 'gateway/front', 'gateway/sourceSettings', 'gateway', 'admin'],
  'gateway/main': ['gateway/config', 'gateway/commands'],
};

/** Which module a path belongs to: a top folder, a gateway/ folder, or one of gateway/'s own files. */
function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'gateway') return parts[0]!;
  if (parts.length > 2) return `gateway/${parts[1]}`;
  return path === 'gateway/index.ts' ? 'gateway' : path.replace(/\.ts$/, '');
}

/**
 * A module's public surface: its folder's index.ts, or the file itself for gateway/runtime.ts and
 * main.ts. Each command file is a surface of its own: main imports exactly one, on demand.
 */
function isSurface(path: string): boolean {
  return path.endsWith('/index.ts') || moduleOf(path) === path.replace(/\.ts$/, '') || path.startsWith('gateway/commands/');
}

function edgeProblem(edge: ImportEdge): string | undefined {
  const src = moduleOf(edge.from);
  const dst = moduleOf(edge.to);
  const how = edge.kind === 'dynamic' ? 'dynamically imports' : 'imports';
  if (src === dst) return undefined;
  const allowed = MAY_IMPORT[src];
  if (!allowed) return `${edge.from} is in no layer; add its module to MAY_IMPORT`;
  if (!allowed.includes(dst)) return `${edge.from} may not import ${edge.to} (${src} ${how} ${dst})`;
  if (!isSurface(edge.to)) return `${edge.from} deep-imports ${edge.to}; import the folder's index.ts`;
  return undefined;
}

/** Every rule broken by these files, as readable lines. */
export function layeringViolations(files: SourceFile[]): string[] {
  const edges = files.flatMap(importsOf).filter((e) => e.to.endsWith('.ts'));
  const problems = edges.map(edgeProblem).filter((p): p is string => p !== undefined);
  for (const cycle of importCycles(edges)) problems.push(`import cycle: ${cycle.join(' -> ')}`);
  for (const file of files) {
    if (/^\s*export\s+\*/m.test(file.text)) problems.push(`${file.path} re-exports with export *; name what it exports`);
    if (/process\.env\b/.test(file.text) && file.path !== 'gateway/main.ts') problems.push(`${file.path} reads process.env`);
    if (/from 'sql\.js'/.test(file.text) && !file.path.startsWith('storage/')) problems.push(`${file.path} uses sql.js`);
    if (/console\.log\(|process\.stdout\.write/.test(file.text) && file.path !== 'gateway/main.ts') {
      problems.push(`${file.path} writes to stdout (the stdio protocol channel)`);
    }
  }
  return problems;
}

const one = (path: string, text: string) => layeringViolations([{ path, text }]);

describe('layering (house style §1)', () => {
  it('the checker catches each kind of violation', () => {
    expect(one('catalog/x.ts', "import { a } from '../gateway/index.js';")).toHaveLength(1);
    expect(one('gateway/broker/x.ts', "import { a } from '../../storage/index.js';")).toHaveLength(1);
    expect(one('admin/x.ts', "import { a } from '../storage/index.js';")).toHaveLength(1);
    expect(one('admin/x.ts', "import { a } from '../gateway/broker/createBroker.js';")).toHaveLength(1);
    expect(one('gateway/core/x.ts', "import { a } from '../registry/index.js';")).toHaveLength(1);
    expect(one('storage/x.ts', "import { a } from '../gateway/broker/index.js';")).toHaveLength(1);
    expect(one('gateway/broker/x.ts', "import { a } from '../registry/governedTool.js';")).toHaveLength(1);
    expect(one('gateway/broker/x.ts', 'const port = process.env.PORT;')).toHaveLength(1);
    expect(one('gateway/x.ts', "import initSqlJs from 'sql.js';")).toEqual(['gateway/x.ts uses sql.js']);
    expect(one('gateway/core/index.ts', "export * from './clock.js';")).toHaveLength(1);
    expect(one('gateway/commands/serveCommand.ts', "import { a } from '../../storage/index.js';")).toEqual([]);
    expect(one('gateway/main.ts', "import { a } from '../storage/index.js';")).toHaveLength(1);
    expect(one('storage/x.ts', "import { a } from '../gateway/core/index.js';")).toEqual([]);
  });

  it('enforces the order inside gateway/: the broker may not reach up into the listener', () => {
    expect(one('gateway/broker/x.ts', "import { serveStdio } from '../listener/index.js';")).toEqual([
      'gateway/broker/x.ts may not import gateway/listener/index.ts (gateway/broker imports gateway/listener)',
    ]);
    expect(one('gateway/registry/x.ts', "import type { Broker } from '../broker/index.js';")).toHaveLength(1);
    expect(one('gateway/listener/x.ts', "import { createBroker } from '../broker/index.js';")).toEqual([]);
  });

  it('sees dynamic import() and export … from, and reads multi-line clauses', () => {
    expect(one('gateway/core/x.ts', "const m = await import('../../sources/index.js');")).toEqual([
      'gateway/core/x.ts may not import sources/index.ts (gateway/core dynamically imports sources)',
    ]);
    expect(one('catalog/index.ts', "export { a } from '../gateway/core/index.js';")).toHaveLength(1);
    expect(one('storage/x.ts', "import {\n  a,\n  type B,\n} from '../gateway/broker/index.js';")).toHaveLength(1);
  });

  it('forbids import cycles, type-only ones included', () => {
    const cycle = layeringViolations([
      { path: 'gateway/broker/a.ts', text: "import { b } from './b.js';" },
      { path: 'gateway/broker/b.ts', text: "import type { A } from './a.js';" },
    ]);
    expect(cycle).toEqual(['import cycle: gateway/broker/a.ts -> gateway/broker/b.ts -> gateway/broker/a.ts']);
  });

  it('the rule table is a DAG over the modules that exist', () => {
    const modules = Object.keys(MAY_IMPORT);
    const edges: ImportEdge[] = modules.flatMap((m) => MAY_IMPORT[m]!.map((to) => ({ from: `${m}.ts`, to: `${to}.ts`, kind: 'static' as const })));
    expect(importCycles(edges)).toEqual([]);
    for (const allowed of Object.values(MAY_IMPORT)) for (const m of allowed) expect(modules).toContain(m);
  });

  const files = LAYERS.flatMap((layer) => sourceFiles(ROOT, layer));
  const edges = files.flatMap(importsOf);

  it('the source tree follows the rules', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(layeringViolations(files)).toEqual([]);
  });

  it('an error type or a schema loads no source, no XML parser and no other gateway folder', () => {
    for (const entry of ['gateway/core/gatewayError.ts', 'gateway/core/index.ts', 'catalog/index.ts']) {
      const loaded = [...staticClosure(entry, edges)];
      expect(loaded.filter((p) => !/^(catalog|gateway\/core)\/.*\.ts$/.test(p) && p.endsWith('.ts'))).toEqual([]);
      expect(loaded).not.toContain('fast-xml-parser');
    }
  });

  it("no module loads a source's server code up front: the registry imports it on first use", () => {
    const loaded = [...staticClosure('gateway/commands/serveCommand.ts', edges)];
    expect(loaded).toContain('sources/index.ts');
    expect(loaded.filter((p) => p.startsWith('sources/') && !/^sources\/([a-z]+\/manifest|index|builtinSources|shared\/sourceDefinition)\.ts$/.test(p))).toEqual([]);
    expect(loaded).not.toContain('fast-xml-parser');
  });

  it('prom-client is loaded on demand: a gateway that serves no metrics (scigate stdio) never imports it', () => {
    expect([...staticClosure('gateway/main.ts', edges)]).not.toContain('prom-client');
    const toProm = edges.filter((e) => e.to === 'prom-client');
    expect(toProm.map((e) => e.from)).toContain('gateway/metrics/gatewayMetrics.ts');
    expect(toProm.filter((e) => e.kind === 'static')).toEqual([]);
  });

  it('pg is loaded on demand: a gateway on the embedded store never imports it', () => {
    for (const command of ['serveCommand', 'stdioRuntime']) expect([...staticClosure(`gateway/commands/${command}.ts`, edges)]).not.toContain('pg');
    expect(edges).toContainEqual({ from: 'storage/postgresOnDemand.ts', to: 'storage/postgres/index.ts', kind: 'dynamic' });
  });

  it('scigate source (each child of --isolate-sources) loads one source server, not the gateway: no HTTP edge, storage, PostgreSQL or Redis', () => {
    const loaded = [...new Set([...staticClosure('gateway/main.ts', edges), ...staticClosure('gateway/commands/sourceCommand.ts', edges)])];
    expect(loaded.filter((p) => /^(admin|storage)\/|^gateway\/(index|runtime)\.ts$|^gateway\/(listener|broker|custom|registry)\//.test(p))).toEqual([]);
    for (const heavy of ['express', 'pg', 'sql.js', 'ioredis', 'ajv', 'prom-client']) expect(loaded).not.toContain(heavy);
  });

  it('scigate stdio answers initialize with Node alone: the SDK, zod, the session front, storage and the runtime come later', () => {
    const loaded = new Set([...staticClosure('gateway/main.ts', edges), ...staticClosure('gateway/commands/stdioCommand.ts', edges)]);
    const beforeTheAnswer = /^(node:.*|gateway\/main\.ts|gateway\/(config|handshake)\/[^/]+\.ts|gateway\/commands\/(stdioCommand|stopSignal|version)\.ts)$/;
    expect([...loaded].filter((p) => !beforeTheAnswer.test(p))).toEqual([]);
    expect(loaded).toContain('gateway/handshake/index.ts');
    // The session front (the SDK server) is imported once the answer is out.
    expect(edges).toContainEqual({ from: 'gateway/commands/stdioCommand.ts', to: 'gateway/front/index.ts', kind: 'dynamic' });
  });
});
