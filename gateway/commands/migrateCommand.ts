/** `scigate migrate --to postgres://…`: moves an embedded data directory's store into PostgreSQL. */
import { join, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { copyEmbeddedStore, redactPostgresUrl, type CopyReport } from '../../storage/index.js';
import { UsageError, type FlagValues } from '../index.js';
import { checkedPostgresUrl, scrubStorePassword, secretKeyFileFlag } from './storeWiring.js';
import { createLogger } from './logger.js';
import { scrubbedLog } from './wiring.js';

/** Copies, prints what moved (stderr) and what to run next; resolves with the exit code. */
const TO_FLAG = '--to (SCIGATE_MIGRATE_TO)';

export async function runMigrate(flags: FlagValues): Promise<number> {
  if (typeof flags.to !== 'string') {
    throw new UsageError('scigate migrate needs --to postgres://user:password@host:5432/database (SCIGATE_MIGRATE_TO): the PostgreSQL to move the data dir into.');
  }
  const url = checkedPostgresUrl(flags.to, TO_FLAG);
  const dataDir = resolve(String(flags.dataDir));
  const database = await stat(join(dataDir, 'scigate.db')).catch(() => undefined);
  if (!database?.isFile()) throw new UsageError(`${dataDir} holds no scigate.db; point --data-dir (SCIGATE_DATA_DIR) at the data directory to move.`);
  const { secrets, log } = scrubbedLog({ env: {}, log: createLogger(String(flags.logLevel ?? 'info')) }, []);
  scrubStorePassword(secrets, url);
  const report = await copyEmbeddedStore({ dataDir, url, log, urlFlag: TO_FLAG, ...secretKeyFileFlag(flags) });
  process.stderr.write(`${describeCopy(report, dataDir, redactPostgresUrl(url))}\n`);
  return 0;
}

/** What moved, then how to start a replica on it; the data directory keeps the token and the secrets key. */
export function describeCopy(report: CopyReport, dataDir: string, shownUrl: string): string {
  const rows = Object.entries(report.tables).map(([table, n]) => `  ${table.padEnd(26)} ${n.copied} copied${n.skipped ? `, ${n.skipped} already there` : ''}`);
  const { blobs } = report;
  return [
    `Moved ${dataDir} into ${shownUrl}:`,
    ...rows,
    `  ${'CAS blobs'.padEnd(26)} ${blobs.copied} copied${blobs.skipped ? `, ${blobs.skipped} already there` : ''}${blobs.corrupt ? `, ${blobs.corrupt} damaged (not copied; see the log)` : ''}`,
    `Start the gateway with --store (SCIGATE_STORE) set to that URL and --data-dir ${dataDir} (the admin token stays there). ` +
      'Custom servers and OAuth logins are now read from PostgreSQL, encrypted under the same key: give every replica that key with --secret-key-file (SCIGATE_SECRET_KEY_FILE).',
  ].join('\n');
}
