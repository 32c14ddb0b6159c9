import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlDatabase } from '../../storage/index.js';
import { capFileSize, recordingLogger } from './storageFaults.js';

let dir: string;
afterEach(async () => {
  capFileSize(process.pid, undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a file replaced atomically on a full disk', () => {
  it('leaves no partial temp file behind: a failed checkpoint gives back the space it took', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-atomic-'));
    const { log } = recordingLogger();
    const db = await SqlDatabase.open({ dataDir: dir, log, checkpointEvery: 100_000 });
    await db.write("INSERT INTO sessions (id, project_id, transport, approval_mode, created_at) VALUES ('s1', 'p', 'http', 'ask_for_dangerous', '2026-01-01')");
    // The database file is larger than this: its copy is cut mid-way with EFBIG, as on ENOSPC.
    capFileSize(process.pid, 16 * 1024);
    await expect(db.checkpoint()).rejects.toMatchObject({ code: 'EFBIG' });
    capFileSize(process.pid, undefined);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await db.close();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
