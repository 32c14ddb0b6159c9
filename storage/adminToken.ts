import { randomBytes } from 'node:crypto';
import { unwatchFile, watchFile } from 'node:fs';
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
 * restore) is tightened to 0600 before it is used. One that cannot be read (another user's, after
 * a `sudo scigate token --rotate`) is refused: replacing it would lock out everyone holding its token.
 */
export async function loadAdminToken(dataDir: string, options: { rotate?: boolean } = {}): Promise<AdminToken> {
  const path = join(dataDir, 'admin-token');
  if (!options.rotate) {
    const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(unreadable(path, error))));
    if (existing.trim().length >= 32) {
      await tightenToOwnerOnly(path);
      return { token: existing.trim(), path, created: false };
    }
  }
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(path, `${token}\n`);
  return { token, path, created: true };
}

function unreadable(path: string, error: NodeJS.ErrnoException): Error {
  const uid = process.getuid?.();
  return new Error(
    `Cannot read the admin token file ${path} (${error.code ?? error.message}); scigate does not replace a token it cannot read. ` +
      `Make it readable by the user scigate runs as${uid === undefined ? '' : ` (uid ${uid})`}, or remove it to have a new token made.`,
    { cause: error },
  );
}

async function tightenToOwnerOnly(path: string): Promise<void> {
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) await chmod(path, 0o600);
}

/** The admin token in force, as a running gateway follows it. */
export interface LiveAdminToken {
  current(): string;
  /** Calls `listener` after each change of the token in force (after `onChange`); returns its removal. */
  onChange(listener: () => void): () => void;
  stop(): void;
}

/** How often a running gateway looks at its token file. */
const TOKEN_POLL_MS = 1000;

/**
 * Follows `<dataDir>/admin-token` while a gateway runs: `scigate token --rotate` (or an admin
 * replacing the file) takes effect within about a second, and from then on only the new token is
 * accepted; without this the old token kept working until a restart, and the new one did not. The
 * file is polled (one stat a second), because file events do not reach every volume a data
 * directory may live on. A file emptied, cut short or removed leaves the token in force; so does one
 * this user cannot read (another user's, after a `sudo scigate token --rotate`), which `onUnreadable`
 * hears of: the new token is refused until the file is readable, and somebody must be told why.
 */
export function followAdminToken(file: AdminToken, onChange: (token: string) => void, onUnreadable?: (error: NodeJS.ErrnoException) => void): LiveAdminToken {
  let token = file.token;
  const listeners = new Set<() => void>();
  const listener = () => {
    void readFile(file.path, 'utf8').then(
      (text) => {
        const next = text.trim();
        if (next.length < 32 || next === token) return;
        token = next;
        onChange(next);
        for (const told of [...listeners]) told();
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') onUnreadable?.(error);
      },
    );
  };
  watchFile(file.path, { interval: TOKEN_POLL_MS, persistent: false }, listener);
  return {
    current: () => token,
    onChange: (told) => {
      listeners.add(told);
      return () => listeners.delete(told);
    },
    stop: () => {
      unwatchFile(file.path, listener);
      listeners.clear();
    },
  };
}
