import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlDatabase, openStorage } from '../../storage/index.js';
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

describe('a temp file a kill -9 left in the middle of a save', () => {
  it('is removed at the next start and named in a warning; one `scigate token` may be writing is left alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-atomic-'));
    const first = await openStorage({ dataDir: dir, log: recordingLogger().log });
    await first.close();
    // What a process killed between writing a temp file and renaming it leaves behind.
    const left = ['.scigate.db.0123456789ab.tmp', '.custom-mcp-servers.enc.0123456789ab.tmp', 'audit/.00000001.idx.json.0123456789ab.tmp'];
    for (const name of left) await writeFile(join(dir, name), 'partial copy');
    await writeFile(join(dir, '.admin-token.0123456789ab.tmp'), 'a token being rotated');
    const { log, warnings } = recordingLogger();
    const second = await openStorage({ dataDir: dir, log });
    await second.close();
    const temps = [...(await readdir(dir)), ...(await readdir(join(dir, 'audit'))).map((n) => `audit/${n}`)].filter((n) => n.endsWith('.tmp'));
    expect(temps).toEqual(['.admin-token.0123456789ab.tmp']);
    const warning = warnings.find((w) => Array.isArray(w.fields.removed));
    expect(warning?.msg).toMatch(/temporary/);
    expect([...(warning!.fields.removed as string[])].sort()).toEqual(left.map((name) => join(dir, name)).sort());
  });
});
