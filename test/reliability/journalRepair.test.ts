import { afterEach, describe, expect, it } from 'vitest';
import { appendFile, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlDatabase } from '../../storage/index.js';
import { Journal } from '../../storage/journal.js';
import type { Logger } from '../../gateway/core/index.js';
import { asIfKilled } from '../fixtures/asIfKilled.js';
import { capFileSize, recordingLogger } from './storageFaults.js';

let dir: string;
afterEach(async () => {
  capFileSize(process.pid, undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const openDb = (log: Logger) => SqlDatabase.open({ dataDir: dir, log, checkpointEvery: 100_000 });
const insert = (db: SqlDatabase, id: string) =>
  db.write("INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES (?, 'p', 'http', 'ask_for_dangerous', '2026-01-01')", [id]);
const ids = (db: SqlDatabase) => db.all('SELECT id FROM sessions ORDER BY id').map((r) => r.id);
const journalPath = () => join(dir, 'scigate.db.journal');

describe('a torn journal tail', () => {
  it('is saved aside and cut off before new appends, so writes acknowledged after it survive kill -9', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-torn-'));
    const { log, warnings } = recordingLogger();
    const first = await openDb(log);
    await insert(first, 'kept');
    await first.close();
    const fragment = '{"seq":2,"sql":"INSERT INTO sessions (id';
    await appendFile(journalPath(), fragment);

    const second = await openDb(log);
    const acknowledged = Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    await Promise.all(acknowledged.map((id) => insert(second, id)));
    // The process dies here with the 20 writes only in the journal.
    await asIfKilled(dir, second);

    const third = await openDb(log);
    expect(ids(third)).toEqual(['kept', ...acknowledged]);
    const aside = (await readdir(dir)).filter((f) => f.startsWith('scigate.db.journal.torn-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0]!), 'utf8')).toBe(fragment);
    expect((await stat(join(dir, aside[0]!))).mode & 0o777).toBe(0o600);
    const warning = warnings.find((w) => w.msg.includes('torn'));
    expect(warning?.fields).toMatchObject({ savedTo: join(dir, aside[0]!), tornBytes: fragment.length });
    await third.close();
  });

  it('a complete last line without its newline was never acknowledged: it is set aside, not joined onto', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-torn-'));
    const { log } = recordingLogger();
    const first = await openDb(log);
    await first.close();
    const unterminated = { seq: 99, sql: "INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES ('ghost', 'p', 'http', 'ask_for_dangerous', '2026-01-01')", params: [] };
    await appendFile(journalPath(), JSON.stringify(unterminated));
    const second = await openDb(log);
    await insert(second, 'after');
    await asIfKilled(dir, second);
    const third = await openDb(log);
    expect(ids(third)).toEqual(['after']);
    await third.close();
  });
});

describe('a failed journal write (full disk)', () => {
  it('is refused with storage_unavailable, leaves nothing refused in memory or in a checkpoint, and heals once space is back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-full-'));
    const { log } = recordingLogger();
    const db = await openDb(log);
    await insert(db, 'a0');
    const journalBytes = (await stat(journalPath())).size;
    // Room for a couple more lines, then EFBIG: the journal line is cut mid-way, as on ENOSPC.
    capFileSize(process.pid, journalBytes * 3 + 40);
    const attempts = Array.from({ length: 12 }, (_, i) => `b${String(i).padStart(2, '0')}`);
    const settled = await Promise.allSettled(attempts.map((id) => insert(db, id)));
    const acked = attempts.filter((_, i) => settled[i]!.status === 'fulfilled');
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason);
    expect(refused.length).toBeGreaterThan(0);
    for (const reason of refused) expect(reason).toMatchObject({ code: 'storage_unavailable', retryable: true });
    // Memory holds exactly what the disk acknowledged.
    expect(ids(db)).toEqual(['a0', ...acked]);
    // Refused lines were cut off again, so only a write that still does not fit is refused.
    await expect(insert(db, `x${'x'.repeat(journalBytes * 4)}`)).rejects.toMatchObject({ code: 'storage_unavailable' });
    await expect(db.checkpoint()).rejects.toBeDefined();
    expect(ids(db)).toEqual(['a0', ...acked]);

    capFileSize(process.pid, undefined);
    await insert(db, 'c0');
    expect(ids(db)).toEqual(['a0', ...acked, 'c0']);
    // kill -9 here: reopening from disk finds every acknowledged write and nothing else.
    await asIfKilled(dir, db);
    const reopened = await openDb(log);
    expect(ids(reopened)).toEqual(['a0', ...acked, 'c0']);
    await reopened.checkpoint();
    await reopened.close();
  });
});

describe('a disk with room for the lines but not for a new reserve', () => {
  const entry = (seq: number) => ({ seq, sql: `INSERT ${seq}`, params: [] });
  const RESERVE = 64 * 1024;

  it('writes the lines alone and acknowledges them, then lays the reserve again once there is room', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-no-reserve-'));
    const path = join(dir, 'segment.log');
    const { log, errors } = recordingLogger();
    const { journal } = await Journal.open(path, { log, reserveBytes: RESERVE });
    // Room for 16 KiB: every line fits, a 64 KiB reserve never does (EFBIG, as ENOSPC on a full disk).
    capFileSize(process.pid, 16 * 1024);
    for (let seq = 1; seq <= 20; seq++) await journal.append(entry(seq));
    expect(journal.failed).toBe(false);
    expect(errors).toEqual([]);

    capFileSize(process.pid, undefined);
    await journal.append(entry(21));
    const lines = Array.from({ length: 21 }, (_, i) => `${JSON.stringify(entry(i + 1))}\n`).join('');
    // The 21st flush passed what was allocated and laid a whole reserve after its line.
    expect((await stat(path)).size).toBe(lines.length + RESERVE);
    await journal.close();
    expect(await readFile(path, 'utf8')).toBe(lines);
  });
});
