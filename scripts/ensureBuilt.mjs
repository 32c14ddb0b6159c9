// `npm start` builds first when dist/ is missing or older than any source file, so a fresh clone just works.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const entry = 'dist/bundle/scigate.js';
const roots = ['gateway', 'admin', 'catalog', 'sources', 'storage'];

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(path) : stat.mtimeMs);
  }
  return newest;
}

const stale = !existsSync(entry) || roots.some((root) => newestMtime(root) > statSync(entry).mtimeMs);
if (stale) {
  process.stderr.write('Building scigate (first start or sources changed)…\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/copyAssets.mjs'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { stdio: 'inherit' });
}
