// What one journal flush costs the gateway process in CPU, by how it reaches the disk:
// `node scripts/benchJournalWrite.mjs` (results in docs/benchmarks.md, "What the audit's I/O costs").
// Each mode appends two 350-byte lines per flush, sequentially, to a file in TMPDIR, removed after.
import { constants, fdatasync, fdatasyncSync, openSync, closeSync, rmSync, write, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const line = JSON.stringify({ seq: 1, kind: 'intent', tool: 'x', args: 'a'.repeat(300) }) + '\n';
const batch = Buffer.from(line + line);
const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);
const file = join(tmpdir(), `scigate-journal-bench-${process.pid}.log`);

/** Without fsync: FileHandle.appendFile(string) against the callback fs.write of one Buffer. */
async function unsynced(mode, n) {
  const handle = await open(file, 'a');
  const start = process.cpuUsage();
  for (let i = 0; i < n; i += 1) {
    if (mode === 'appendFile') await handle.appendFile(line + line);
    else await writeAsync(handle.fd, batch, 0, batch.length, null);
  }
  const used = process.cpuUsage(start);
  await handle.close();
  return (used.user + used.system) / n;
}

/**
 * Durable: an O_DSYNC write on the pool over a reserve of zeros (as shipped for the audit log), an
 * O_DSYNC append, write + fdatasync on the pool, or on the main thread. Returns CPU and wall time
 * per flush, in µs.
 */
async function synced(mode, n) {
  const dsync = constants.O_CREAT | constants.O_WRONLY | constants.O_DSYNC;
  const fd = mode === 'reserve' ? openSync(file, dsync) : mode === 'dsync' ? openSync(file, dsync | constants.O_APPEND) : openSync(file, 'a');
  if (mode === 'reserve') writeSync(fd, Buffer.alloc(n * batch.length), 0, n * batch.length, 0);
  const start = process.cpuUsage();
  const startedAt = performance.now();
  for (let i = 0; i < n; i += 1) {
    if (mode === 'reserve') await writeAsync(fd, batch, 0, batch.length, i * batch.length);
    else if (mode === 'dsync') await writeAsync(fd, batch, 0, batch.length, null);
    else if (mode === 'pool') await writeAsync(fd, batch, 0, batch.length, null).then(() => fdatasyncAsync(fd));
    else if (mode === 'sync write') writeSync(fd, batch), await fdatasyncAsync(fd);
    else writeSync(fd, batch), fdatasyncSync(fd);
  }
  const wall = ((performance.now() - startedAt) * 1000) / n;
  const used = process.cpuUsage(start);
  closeSync(fd);
  rmSync(file);
  return `${((used.user + used.system) / n).toFixed(0)} (${wall.toFixed(0)} µs a flush)`;
}

try {
  for (let round = 1; round <= 3; round += 1) {
    const [append, cb] = [await unsynced('appendFile', 20_000), await unsynced('write', 20_000)];
    const [reserve, dsync, pool, half, main] = [
      await synced('reserve', 2_000), await synced('dsync', 2_000), await synced('pool', 2_000), await synced('sync write', 2_000), await synced('main thread', 2_000),
    ];
    console.log(
      `round ${round}, µs of CPU per flush: no fsync: appendFile ${append.toFixed(1)}, fs.write ${cb.toFixed(1)} | ` +
        `O_DSYNC write on the pool: over a reserve ${reserve}, appending ${dsync} | ` +
        `write + fdatasync: both on the pool ${pool}, writeSync + pool fdatasync ${half}, both on the main thread ${main}`,
    );
  }
} finally {
  rmSync(file, { force: true });
}
