import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';

export interface AdminToken {
  token: string;
  path: string;
  /** True when this call generated it (first start or rotation). */
  created: boolean;
}

/** Loads `<dataDir>/admin-token`, generating a fresh 256-bit token (mode 0600) when absent or on rotate. */
export async function loadAdminToken(dataDir: string, options: { rotate?: boolean } = {}): Promise<AdminToken> {
  const path = join(dataDir, 'admin-token');
  if (!options.rotate) {
    const existing = await readFile(path, 'utf8').catch(() => '');
    if (existing.trim().length >= 32) return { token: existing.trim(), path, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(path, `${token}\n`);
  return { token, path, created: true };
}
