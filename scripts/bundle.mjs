// Bundles the compiled gateway (dist/) into dist/bundle/scigate.js and its lazily loaded chunks.
//
// Why: Node 20 loads ES modules one by one (resolve, read, link) and has no compile cache. The
// gateway is about 600 modules, and loading them was a third of what a `scigate serve` start costs
// (1.0–1.1 s of CPU before, 0.7–0.8 s bundled). Every gateway, stdio front and `scigate source`
// child pays that at start, so the bundle is what the package runs; dist/gateway/main.js, the
// compiled modules unbundled, still runs the same commands (clearer stack traces when debugging).
import { rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';

const OUT = resolve('dist/bundle');
const ENTRY = resolve('dist/gateway/main.js');

// Left as packages: each loads files next to its own code at run time (sql.js its WebAssembly,
// pdfjs-dist its worker, pino its transports) or is imported only on first use (pg, ioredis).
const external = [/^node:/, /^(sql\.js|pdfjs-dist|pino|pino-[\w-]+|thread-stream|pg|pg-[\w-]+|ioredis)(\/|$)/];

/**
 * A module's `import.meta.url` stays the URL of its own compiled file, so what it finds beside
 * itself (migrations, the admin page, worker files, `createRequire`) is found from the bundle too.
 * The entry and every chunk are written to OUT, so one relative path serves each module. The
 * entry keeps the bundle's URL: main.js compares it with the script Node was asked to run.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  transform(code, id) {
    if (id === ENTRY || !code.includes('import.meta.url')) return null;
    const own = JSON.stringify(relative(OUT, id).split('\\').join('/'));
    return { code: code.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`), map: null };
  },
};

await rm(OUT, { recursive: true, force: true });
const bundle = await rolldown({ input: { scigate: ENTRY }, platform: 'node', external, plugins: [keepModuleUrls], logLevel: 'warn' });
await bundle.write({ dir: OUT, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
await bundle.close();
