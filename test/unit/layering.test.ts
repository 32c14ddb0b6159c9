import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAYERS = ['catalog', 'gateway', 'storage', 'admin'] as const;

/** Which module (top folder, or gateway/<sub>) a path belongs to. */
function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'gateway' && parts.length > 2) return `gateway/${parts[1]}`;
  return parts[0]!;
}

/** What each module may import, by the rules of house style §1. */
function mayImport(from: string, to: string): boolean {
  const src = moduleOf(from);
  const dst = moduleOf(to);
  if (src === dst) return true;
  if (from === 'gateway/main.ts') return true;
  if (dst === 'catalog') return true;
  if (src === 'catalog') return false;
  if (src === 'gateway/core') return false;
  if (src === 'storage') return dst === 'gateway/core';
  if (src === 'admin') return to === 'gateway/index.ts';
  if (src.startsWith('gateway')) return dst.startsWith('gateway') && dst !== 'storage';
  return false;
}

interface Source {
  path: string;
  text: string;
}

/** Every rule broken by these files, as readable lines. */
export function layeringViolations(files: Source[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const imports = [...file.text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) {
      const target = normalize(join(dirname(file.path), spec)).replace(/\.js$/, '.ts');
      if (!mayImport(file.path, target)) problems.push(`${file.path} may not import ${target}`);
      else if (moduleOf(file.path) !== moduleOf(target) && !target.endsWith('index.ts') && file.path !== 'gateway/main.ts') {
        problems.push(`${file.path} deep-imports ${target}; import the folder's index.ts`);
      }
    }
    if (/process\.env\b/.test(file.text) && file.path !== 'gateway/main.ts') problems.push(`${file.path} reads process.env`);
    if (/from 'sql\.js'/.test(file.text) && !file.path.startsWith('storage/')) problems.push(`${file.path} uses sql.js`);
    if (/console\.log\(|process\.stdout\.write/.test(file.text) && file.path !== 'gateway/main.ts') {
      problems.push(`${file.path} writes to stdout (the stdio protocol channel)`);
    }
  }
  return problems;
}

function sourceFiles(dir: string): Source[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [{ path: relative('.', path), text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

describe('layering (house style §1)', () => {
  it('the checker catches each kind of violation', () => {
    expect(layeringViolations([{ path: 'catalog/x.ts', text: "import { a } from '../gateway/index.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/broker/x.ts', text: "import { a } from '../../storage/index.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'admin/x.ts', text: "import { a } from '../storage/index.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'admin/x.ts', text: "import { a } from '../gateway/broker/createBroker.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/core/x.ts', text: "import { a } from '../registry/index.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'storage/x.ts', text: "import { a } from '../gateway/broker/index.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/broker/x.ts', text: "import { a } from '../registry/governedTool.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/broker/x.ts', text: 'const port = process.env.PORT;' }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/x.ts', text: "import initSqlJs from 'sql.js';" }])).toHaveLength(1);
    expect(layeringViolations([{ path: 'gateway/main.ts', text: "import { a } from '../storage/index.js';" }])).toEqual([]);
    expect(layeringViolations([{ path: 'storage/x.ts', text: "import { a } from '../gateway/core/index.js';" }])).toEqual([]);
  });

  it('the source tree follows the rules', () => {
    const files = LAYERS.flatMap((layer) => sourceFiles(layer));
    expect(files.length).toBeGreaterThan(20);
    expect(layeringViolations(files)).toEqual([]);
  });
});
