/**
 * Child process of the download benchmark: the physical limit of a Node.js download on this machine.
 * A plain node:http GET piped to a file with its sha256 computed on the way and an fsync at the end,
 * nothing else (no policy, audit, progress or resume); answers with its seconds and CPU ms.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { get } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

process.on('message', async ({ url, out }: { url: string; out: string }) => {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => get(url, resolve).once('error', reject));
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(response, tap, createWriteStream(out));
  const handle = await open(out, 'r');
  await handle.sync();
  await handle.close();
  hash.digest('hex');
  const used = process.cpuUsage(cpu);
  process.send!({ seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuMs: (used.user + used.system) / 1000 });
});
process.send!({ ready: true });
