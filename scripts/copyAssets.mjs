// Copies the non-TypeScript files the compiled gateway needs (SQL migrations, admin page) into dist/.
import { cpSync, existsSync } from 'node:fs';

const assets = [
  ['storage/migrations', 'dist/storage/migrations'],
  ['admin/page', 'dist/admin/page'],
];
for (const [from, to] of assets) {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
