// Copies the non-TypeScript files the compiled gateway needs (SQL migrations, admin page) into dist/.
import { cpSync, existsSync } from 'node:fs';

const assets = [
  ['storage/migrations', 'dist/storage/migrations'],
  ['admin/page', 'dist/admin/page'],
  // The pdf.js worker is plain JavaScript (Node 20 runs worker files without a TypeScript loader).
  ['gateway/extraction/pdfTextWorker.mjs', 'dist/gateway/extraction/pdfTextWorker.mjs'],
  ['gateway/artifacts/downloadWorker.mjs', 'dist/gateway/artifacts/downloadWorker.mjs'],
  ['gateway/artifacts/hashWorker.mjs', 'dist/gateway/artifacts/hashWorker.mjs'],
  ['gateway/artifacts/rawHttpGet.mjs', 'dist/gateway/artifacts/rawHttpGet.mjs'],
  ['gateway/artifacts/httpResponseReader.mjs', 'dist/gateway/artifacts/httpResponseReader.mjs'],
];
for (const [from, to] of assets) {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
