import { join } from 'node:path';
import type { Logger, Storage } from '../gateway/core/index.js';
import { ensurePrivateDir } from './dataDir.js';
import { FileCas } from './fileCas.js';
import { InvocationRepository } from './invocationRepository.js';
import { SessionRepository } from './sessionRepository.js';
import { SqlDatabase } from './sqlDatabase.js';

export interface OpenStorageOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  checkpointEvery?: number;
}

/** Opens the embedded store in `dataDir` (created 0700): database + journal and the CAS. */
export async function openStorage(options: OpenStorageOptions): Promise<Storage & { database: SqlDatabase }> {
  await ensurePrivateDir(options.dataDir);
  const database = await SqlDatabase.open(options);
  return {
    database,
    sessions: new SessionRepository(database),
    invocations: new InvocationRepository(database),
    cas: new FileCas(join(options.dataDir, 'cas')),
    close: () => database.close(),
  };
}
