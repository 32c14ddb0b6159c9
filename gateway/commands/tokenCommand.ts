/** `scigate token [--rotate]`: the admin token of a data directory. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ensurePrivateDir, loadAdminToken } from '../../storage/index.js';
import { UsageError, type FlagValues } from '../index.js';

/** The token (for stdout) and a note on where it lives (for stderr); creates or rotates it as asked. */
export async function readToken(flags: FlagValues): Promise<{ token: string; note: string }> {
  const dataDir = resolve(String(flags.dataDir));
  await requireDataDir(dataDir);
  await ensurePrivateDir(dataDir);
  const token = await loadAdminToken(dataDir, { rotate: flags.rotate === true });
  return { token: token.token, note: `${token.created ? 'New token written to' : 'Token file:'} ${token.path}` };
}

/**
 * A token made in a folder no gateway uses opens nothing: a mistyped --data-dir, or `npx scigate
 * token` run from another folder (the default is ./.scigate), would print a token every request
 * then refuses. The gateway makes its data directory on its first start.
 */
async function requireDataDir(dataDir: string): Promise<void> {
  const found = await stat(dataDir).catch(() => undefined);
  const flag = 'pass the one the gateway uses with --data-dir (SCIGATE_DATA_DIR)';
  if (!found) throw new UsageError(`There is no data directory at ${dataDir}; ${flag}, or start the gateway once (scigate serve --data-dir ${dataDir}) to make it.`);
  if (!found.isDirectory()) throw new UsageError(`${dataDir} is a file, not a data directory; ${flag}.`);
}
