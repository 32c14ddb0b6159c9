import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendFile, mkdtemp, readFile, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlDatabase } from '../../../storage/index.js';
import { Journal } from '../../../storage/journal.js';
import type { Logger } from '../../../gateway/core/index.js';
import { asIfKilled } from '../../fixtures/asIfKilled.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function recordingLogger() {
  const warnings: string[] = [];
  const log: Logger = {
    debug: () => {},
    info: () => {},
    error: () => {},
    warn: (_o, msg) => void warnings.push(msg ?? ''),
    child: () => log,
  };
  return { log, warnings };
}

async function openDb(log: Logger, checkpointEvery = 10_000) {
  return SqlDatabase.open({ dataDir: dir, log, checkpointEvery });
}

const insert = (db: SqlDatabase, id: string) =>
  db.write("INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES (?, 'p', 'http', 'ask_for_dangerous', '2026-01-01')", [id]);

describe('the journaled sql.js store', () => {
  it('replays acknowledged writes that never reached a checkpoint (as after kill -9)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log } = recordingLogger();
    const db = await openDb(log);
    await Promise.all(['a', 'b', 'c'].map((id) => insert(db, id)));
    // The process "dies" here with the writes only in the journal.
    await asIfKilled(dir, db);
    const journal = await readFile(join(dir, 'scigate.db.journal'), 'utf8');
    expect(journal.trim().split('\n')).toHaveLength(3);
    const reopened = await openDb(log);
    expect(reopened.all('SELECT id FROM sessions ORDER BY id').map((r) => r.id)).toEqual(['a', 'b', 'c']);
    await reopened.close();
  });

  it('replays a journal with a torn last line up to that line, with a warning, not a crash', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log, warnings } = recordingLogger();
    const db = await openDb(log);
    await insert(db, 'kept');
    await asIfKilled(dir, db);
    await appendFile(join(dir, 'scigate.db.journal'), '{"seq":2,"sql":"INSERT INTO sessions (id');
    const reopened = await openDb(log);
    expect(reopened.all('SELECT id FROM sessions').map((r) => r.id)).toEqual(['kept']);
    expect(warnings.some((w) => w.includes('torn'))).toBe(true);
    await insert(reopened, 'after');
    await reopened.close();
    const third = await openDb(log);
    expect(third.all('SELECT id FROM sessions ORDER BY id').map((r) => r.id)).toEqual(['after', 'kept']);
    await third.close();
  });

  it('a checkpoint writes the database file atomically and empties the journal; files are 0600', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log } = recordingLogger();
    const db = await openDb(log, 2);
    await insert(db, 'one');
    await insert(db, 'two');
    await db.checkpoint();
    expect((await readFile(join(dir, 'scigate.db.journal'), 'utf8')).length).toBe(0);
    expect((await stat(join(dir, 'scigate.db'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'scigate.db.journal'))).mode & 0o777).toBe(0o600);
    await db.close();
    const reopened = await openDb(log);
    expect(reopened.all('SELECT count(*) AS n FROM sessions')[0]!.n).toBe(2);
    await reopened.close();
  });

  it('entries already in a checkpoint are not replayed twice (crash between rename and truncate)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log } = recordingLogger();
    const db = await openDb(log);
    await insert(db, 'x');
    const journal = await readFile(join(dir, 'scigate.db.journal'), 'utf8');
    await db.close();
    await writeFile(join(dir, 'scigate.db.journal'), journal);
    const reopened = await openDb(log);
    expect(reopened.all('SELECT count(*) AS n FROM sessions')[0]!.n).toBe(1);
    await reopened.close();
  });

  it('concurrent writers share fsyncs (group commit): 200 writes, far fewer journal flushes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log } = recordingLogger();
    const db = await openDb(log);
    const flushes = db.journalFlushCount();
    await Promise.all(Array.from({ length: 200 }, (_, i) => insert(db, `s${i}`)));
    expect(db.journalFlushCount() - flushes).toBeLessThan(20);
    expect(db.all('SELECT count(*) AS n FROM sessions')[0]!.n).toBe(200);
    await db.close();
  });

  it('writes made by one turn\'s continuations share one fsync (a call\'s intent and its authorization are one group commit)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const { log } = recordingLogger();
    const db = await openDb(log);
    const flushes = db.journalFlushCount();
    const first = insert(db, 'intent');
    // The next write comes a few promise continuations later, as the permission gate's does.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await Promise.all([first, insert(db, 'authorization')]);
    expect(db.journalFlushCount() - flushes).toBe(1);
    await db.close();
  });

  it.runIf(process.platform === 'linux')('writes O_DSYNC, so a flush is one durable write (no separate fdatasync)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-db-'));
    const path = join(dir, 'audit.log');
    const { journal } = await Journal.open(path, { log: recordingLogger().log });
    await journal.append({ seq: 1, sql: 'SELECT 1', params: [] });
    const fds = await readdir('/proc/self/fd');
    const links = await Promise.all(fds.map(async (fd) => [fd, await readlink(`/proc/self/fd/${fd}`).catch(() => '')] as const));
    const fd = links.find(([, target]) => target === path)![0];
    const flags = parseInt(/flags:\s+(\d+)/.exec(await readFile(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!, 8);
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    await journal.close();
    expect((await readFile(path, 'utf8')).trim()).toBe('{"seq":1,"sql":"SELECT 1","params":[]}');
  });
});

describe('a journal with a reserve of zeros ahead of its last line', () => {
  const entry = (seq: number) => ({ seq, sql: `INSERT ${seq}`, params: [] });
  const lineOf = (seq: number) => `${JSON.stringify(entry(seq))}\n`;
  const open = (path: string, log: Logger, reserveBytes = 4096) => Journal.open(path, { log, reserveBytes });

  it('keeps the zeros on disk while open, reopens after a crash without calling them torn, and continues right after the last line', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-reserve-'));
    const path = join(dir, 'audit.log');
    const { log, warnings } = recordingLogger();
    const { journal } = await open(path, log);
    for (let seq = 1; seq <= 3; seq++) await journal.append(entry(seq));
    const lines = lineOf(1) + lineOf(2) + lineOf(3);
    // The reserve was laid down with the first flush; later flushes overwrite it.
    const onDisk = await readFile(path);
    expect(onDisk.length).toBe(lineOf(1).length + 4096);
    expect(onDisk.subarray(0, lines.length).toString()).toBe(lines);
    expect(onDisk.subarray(lines.length).every((byte) => byte === 0)).toBe(true);

    // Opened again while the first is never closed, as after kill -9.
    const { journal: reopened, entries } = await open(path, log);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(warnings).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.includes('torn'))).toEqual([]);
    // Enough lines to pass the reserve: the file grows by another one.
    for (let seq = 4; seq <= 120; seq++) await reopened.append(entry(seq));
    const all = Array.from({ length: 120 }, (_, i) => lineOf(i + 1)).join('');
    expect((await readFile(path)).subarray(0, all.length).toString()).toBe(all);
    expect((await stat(path)).size).toBeGreaterThan(all.length);
    await reopened.close();
    expect(await readFile(path, 'utf8')).toBe(all);
  });

  it('sets aside only the fragment of a torn line, not the zeros after it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-reserve-'));
    const path = join(dir, 'audit.log');
    const { log, warnings } = recordingLogger();
    await writeFile(path, Buffer.concat([Buffer.from(lineOf(1) + '{"seq":2,"sql":"INS'), Buffer.alloc(4096)]));
    const { journal, entries } = await open(path, log);
    expect(entries.map((e) => e.seq)).toEqual([1]);
    expect(warnings.some((w) => w.includes('torn'))).toBe(true);
    const aside = (await readdir(dir)).find((f) => f.includes('.torn-'))!;
    expect(await readFile(join(dir, aside), 'utf8')).toBe('{"seq":2,"sql":"INS');
    await journal.append(entry(2));
    await journal.close();
    expect(await readFile(path, 'utf8')).toBe(lineOf(1) + lineOf(2));
  });
});

describe('a damaged line between sound ones', () => {
  const entry = (seq: number) => ({ seq, sql: `INSERT ${seq}`, params: [] });
  const lineOf = (seq: number) => `${JSON.stringify(entry(seq))}\n`;
  // One flipped byte: `"sql":` became `"sql";`, so the line no longer parses.
  const damaged = lineOf(2).replace('"sql":', '"sql";');

  it('is passed over where it lies when the journal skips damaged lines: the lines after it are kept, the bytes saved aside once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-damaged-'));
    const path = join(dir, 'audit.log');
    const { log, warnings } = recordingLogger();
    await writeFile(path, Buffer.concat([Buffer.from(lineOf(1) + damaged + lineOf(3)), Buffer.alloc(4096)]));
    const options = { log, skipDamagedLines: true, reserveBytes: 4096 };
    const { journal, entries } = await Journal.open(path, options);
    expect(entries.map((e) => e.seq)).toEqual([1, 3]);
    expect(warnings.filter((w) => w.includes('damaged lines'))).toHaveLength(1);
    const aside = `audit.log.damaged-at-${lineOf(1).length}`;
    expect(await readFile(join(dir, aside), 'utf8')).toBe(damaged);
    await journal.append(entry(4));
    await journal.close();
    expect(await readFile(path, 'utf8')).toBe(lineOf(1) + damaged + lineOf(3) + lineOf(4));

    const again = await Journal.open(path, options);
    expect(again.entries.map((e) => e.seq)).toEqual([1, 3, 4]);
    await again.journal.close();
    expect((await readdir(dir)).filter((f) => f !== 'audit.log')).toEqual([aside]);
  });

  it('still ends the sound lines of the SQL journal, whose writes replay in order: the rest is set aside as a tail', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-damaged-'));
    const path = join(dir, 'scigate.db.journal');
    const { log, warnings } = recordingLogger();
    await writeFile(path, lineOf(1) + damaged + lineOf(3));
    const { journal, entries } = await Journal.open(path, { log });
    expect(entries.map((e) => e.seq)).toEqual([1]);
    expect(warnings.some((w) => w.includes('torn'))).toBe(true);
    const aside = (await readdir(dir)).find((f) => f.includes('.torn-'))!;
    expect(await readFile(join(dir, aside), 'utf8')).toBe(damaged + lineOf(3));
    await journal.close();
  });

  it('is a torn tail like any other when no sound line follows it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-damaged-'));
    const path = join(dir, 'audit.log');
    const { log } = recordingLogger();
    await writeFile(path, Buffer.concat([Buffer.from(lineOf(1) + damaged + '{"seq":3,"sq'), Buffer.alloc(4096)]));
    const { journal, entries } = await Journal.open(path, { log, skipDamagedLines: true, reserveBytes: 4096 });
    expect(entries.map((e) => e.seq)).toEqual([1]);
    const files = await readdir(dir);
    expect(files.filter((f) => f.includes('.damaged-at-'))).toEqual([]);
    expect(await readFile(join(dir, files.find((f) => f.includes('.torn-'))!), 'utf8')).toBe(`${damaged}{"seq":3,"sq`);
    await journal.close();
  });
});

describe('a journal whose owner lets it write on the event loop', () => {
  const entry = (seq: number) => ({ seq, sql: `INSERT ${seq}`, params: [] });

  it('writes a flush somebody waits for on the loop while the owner allows it; one that only lingered, or is not allowed, goes through the thread pool', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-loop-'));
    const path = join(dir, 'audit.log');
    let allowed = true;
    const { journal } = await Journal.open(path, { log: recordingLogger().log, lingerMs: 5, writeOnLoop: () => allowed });
    await journal.append(entry(1));
    expect([journal.flushCount, journal.loopFlushCount]).toEqual([1, 1]);
    allowed = false;
    await journal.append(entry(2));
    expect([journal.flushCount, journal.loopFlushCount]).toEqual([2, 1]);
    allowed = true;
    // Lazy: nobody waits for it, so when the linger ends it is written without stopping the loop.
    await journal.append(entry(3), undefined, true);
    expect([journal.flushCount, journal.loopFlushCount]).toEqual([3, 1]);
    await journal.close();
    expect((await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3]);
  });

  it('after a flush of 1 ms or more, writes through the thread pool until one is fast again: a slow disk never stalls the loop twice', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-loop-'));
    const path = join(dir, 'audit.log');
    const { journal } = await Journal.open(path, { log: recordingLogger().log, writeOnLoop: () => true });
    // Every flush reads the clock before and after its write: a step of 2 ms a reading makes it slow.
    let fakeMs = 0;
    let stepMs = 2;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (fakeMs += stepMs));
    try {
      await journal.append(entry(1));
      expect([journal.flushCount, journal.loopFlushCount]).toEqual([1, 1]);
      await journal.append(entry(2));
      await journal.append(entry(3));
      expect([journal.flushCount, journal.loopFlushCount]).toEqual([3, 1]);
      // A fast flush through the pool lets the next one back on the loop.
      stepMs = 0.1;
      await journal.append(entry(4));
      expect([journal.flushCount, journal.loopFlushCount]).toEqual([4, 1]);
      await journal.append(entry(5));
      expect([journal.flushCount, journal.loopFlushCount]).toEqual([5, 2]);
    } finally {
      clock.mockRestore();
    }
    await journal.close();
  });
});
