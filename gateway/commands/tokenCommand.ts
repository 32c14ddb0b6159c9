/** `scigate token [--rotate]`: the admin token of a data directory. */
import { resolve } from 'node:path';
import { ensurePrivateDir, loadAdminToken } from '../../storage/index.js';
import type { FlagValues } from '../index.js';

/** The token (for stdout) and a note on where it lives (for stderr); creates or rotates it as asked. */
export async function readToken(flags: FlagValues): Promise<{ token: string; note: string }> {
  const dataDir = resolve(String(flags.dataDir));
  await ensurePrivateDir(dataDir);
  const token = await loadAdminToken(dataDir, { rotate: flags.rotate === true });
  return { token: token.token, note: `${token.created ? 'New token written to' : 'Token file:'} ${token.path}` };
}
