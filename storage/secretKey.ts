import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';
import { pathExists } from './dataDir.js';

/** The AES-256-GCM key of every encrypted file in the data directory (seed §5.3). */
export const SECRET_KEY_FILE = 'model-secrets.key';
const KEY_BYTES = 32;

/**
 * Where the secrets key comes from: `<dataDir>/model-secrets.key` (created on first use), or a file
 * every replica shares (`--secret-key-file` / SCIGATE_SECRET_KEY_FILE), which is never created.
 */
export interface SecretKeySource {
  dataDir: string;
  keyFile?: string;
}

/** The key and the path it was read from (the only way a message names it). */
export async function resolveSecretKey(source: SecretKeySource, encryptedFiles: readonly string[]): Promise<{ key: Buffer; path: string }> {
  if (source.keyFile === undefined) return { key: await loadSecretKey(source.dataDir, encryptedFiles), path: join(source.dataDir, SECRET_KEY_FILE) };
  const key = await readFile(source.keyFile).catch((e: NodeJS.ErrnoException) => {
    throw new Error(
      `Cannot read the secret key file ${source.keyFile} (${e.code ?? e.message}) named by --secret-key-file (SCIGATE_SECRET_KEY_FILE); ` +
        `copy a replica's ${SECRET_KEY_FILE} there, or create a new key with: head -c ${KEY_BYTES} /dev/urandom > ${source.keyFile}`,
    );
  });
  if (key.length !== KEY_BYTES) {
    throw new Error(`${source.keyFile} (--secret-key-file) must hold exactly ${KEY_BYTES} bytes but holds ${key.length}; copy a ${SECRET_KEY_FILE} there.`);
  }
  return { key, path: source.keyFile };
}

/**
 * Loads `<dataDir>/model-secrets.key` (32 bytes). A missing key is created (random, mode 0600)
 * only while none of `encryptedFiles` exists: a fresh key could never decrypt them.
 */
export async function loadSecretKey(dataDir: string, encryptedFiles: readonly string[]): Promise<Buffer> {
  const path = join(dataDir, SECRET_KEY_FILE);
  const existing = await readFile(path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
  if (existing) {
    if (existing.length !== KEY_BYTES) {
      throw new Error(`${path} must hold exactly ${KEY_BYTES} bytes but holds ${existing.length}; restore the original key file.`);
    }
    return existing;
  }
  for (const name of encryptedFiles) {
    if (await pathExists(join(dataDir, name))) {
      throw new Error(`${join(dataDir, name)} exists but ${path} is missing; restore the key file (a new key cannot decrypt it).`);
    }
  }
  const key = randomBytes(KEY_BYTES);
  await writeFileAtomic(path, key);
  return key;
}
