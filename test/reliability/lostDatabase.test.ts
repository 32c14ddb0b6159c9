import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlDatabase, openStorage } from '../../storage/index.js';
import { silentLogger } from '../../gateway/core/index.js';
import { asIfKilled } from '../fixtures/asIfKilled.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const dbPath = () => join(dir, 'scigate.db');
const insert = (db: SqlDatabase, id: string) =>
  db.write("INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES (?, 'p', 'http', 'ask_for_dangerous', '2026-01-01')", [id]);
const refusal = (opening: Promise<{ close(): Promise<void> }>) =>
  opening.then(
    async (opened) => {
      await opened.close();
      throw new Error('the store opened');
    },
    (error: Error) => error.message,
  );
/**
 * Files of the data directory this process still holds open (Linux). A refused start must close
 * what it opened: a handle left for the garbage collector prints a deprecation warning ahead of the
 * refusal, and a later Node throws there instead.
 */
async function openFilesIn(dataDir: string): Promise<string[]> {
  const targets = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(`${dataDir}/`));
}

describe('a database that is lost or damaged', () => {
  it('missing or emptied beside an audit log: start-up refuses to begin an empty one over it, naming the file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-lost-'));
    const first = await openStorage({ dataDir: dir, log: silentLogger });
    await insert(first.database, 'ses_kept');
    await first.close();
    const saved = await readFile(dbPath());

    await rm(dbPath());
    expect(await refusal(openStorage({ dataDir: dir, log: silentLogger }))).toBe(
      `${dbPath()} is missing, but the data directory has history (an audit log (audit/)): the database was lost, and scigate does not start an empty one over it. ` +
        'Restore the data directory from a backup, or move it aside and start again to begin afresh.',
    );
    await writeFile(dbPath(), '');
    expect(await refusal(openStorage({ dataDir: dir, log: silentLogger }))).toMatch(/scigate\.db is empty, but the data directory has history/);
    expect(await openFilesIn(dir)).toEqual([]);
    // Nothing was written over it: put back, it opens with what it held.
    await writeFile(dbPath(), saved);
    const again = await openStorage({ dataDir: dir, log: silentLogger });
    expect(again.database.all('SELECT id FROM sessions').map((r) => r.id)).toEqual(['ses_kept']);
    await again.close();
  });

  it('missing beside journal lines not yet checkpointed: refused too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-lost-'));
    const live = await SqlDatabase.open({ dataDir: dir, log: silentLogger, checkpointEvery: 100_000 });
    await insert(live, 'ses_journaled');
    await asIfKilled(dir, live);
    await rm(dbPath());
    expect(await refusal(SqlDatabase.open({ dataDir: dir, log: silentLogger }))).toMatch(/is missing, but the data directory has history \(1 journal line\)/);
    expect(await openFilesIn(dir)).toEqual([]);
  });

  it('a file sql.js cannot read, or a journal line that does not apply, is refused naming it and what to do', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-lost-'));
    const live = await SqlDatabase.open({ dataDir: dir, log: silentLogger, checkpointEvery: 100_000 });
    await insert(live, 'ses_journaled');
    await asIfKilled(dir, live);
    const journal = join(dir, 'scigate.db.journal');
    const lines = await readFile(journal, 'utf8');
    await writeFile(journal, lines.replace('INSERT INTO sessions', 'INSERT INTO sessions {'));
    expect(await refusal(SqlDatabase.open({ dataDir: dir, log: silentLogger }))).toMatch(
      new RegExp(`^The line numbered \\d+ of ${dbPath()}\\.journal could not be read \\(.*\\); restore the data directory from a backup, or move it aside and start again to begin afresh\\.$`),
    );
    await writeFile(dbPath(), Buffer.alloc(4096, 7));
    expect(await refusal(SqlDatabase.open({ dataDir: dir, log: silentLogger }))).toBe(
      `${dbPath()} could not be read (file is not a database); restore the data directory from a backup, or move it aside and start again to begin afresh.`,
    );
    expect(await openFilesIn(dir)).toEqual([]);
  });

  it('written by a newer scigate (a rollback): refused naming both versions, not run on a schema this one does not know', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-lost-'));
    const newer = await SqlDatabase.open({ dataDir: dir, log: silentLogger, checkpointEvery: 100_000 });
    // What a later version's migration leaves: its number in schema_migrations, its table beside ours.
    await newer.write("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_later.sql', '2027-01-01')");
    await newer.write('CREATE TABLE later_feature (id TEXT PRIMARY KEY)');
    await newer.close();
    expect(await refusal(SqlDatabase.open({ dataDir: dir, log: silentLogger }))).toMatch(
      new RegExp(`^${dbPath()} was written by a newer scigate \\(schema version 999; this one knows up to \\d+\\)\\. Run that version again, or restore a backup made by this one\\.$`),
    );
    expect(await openFilesIn(dir)).toEqual([]);
  });
});
