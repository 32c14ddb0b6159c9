import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';

export interface AdminToken {
  token: string;
  path: string;
  /** True when this call generated it (first start or rotation). */
  created: boolean;
}

/**
 * Loads `<dataDir>/admin-token`, generating a fresh 256-bit token (mode 0600) when absent or on
 * rotate. An existing token file that group or others may read (e.g. 0644 after a copy or a
 * restore) is tightened to 0600 before it is used.
 */
export async function loadAdminToken(dataDir: string, options: { rotate?: boolean } = {}): Promise<AdminToken> {
  const path = join(dataDir, 'admin-token');
  if (!options.rotate) {
    const existing = await readFile(path, 'utf8').catch(() => '');
    if (existing.trim().length >= 32) {
      await tightenToOwnerOnly(path);
      return { token: existing.trim(), path, created: false };
    }
  }
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(path, `${token}\n`);
  return { token, path, created: true };
}

async function tightenToOwnerOnly(path: string): Promise<void> {
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) await chmod(path, 0o600);
}
