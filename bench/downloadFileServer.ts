/**
 * Child process of the download bench: serves one file with Range support, streamed from disk, and
 * does nothing else. In a process of its own, its event loop is not shared with the bench's clients,
 * timers and child processes, so every downloader meets the same server.
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [path, sizeText] = process.argv.slice(2) as [string, string];
const size = Number(sizeText);
const server = createServer((req, res) => {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  res.writeHead(range ? 206 : 200, {
    'content-length': String(size - start), 'content-type': 'application/octet-stream',
    ...(range ? { 'content-range': `bytes ${start}-${size - 1}/${size}` } : {}),
  });
  createReadStream(path, { start, highWaterMark: 256 * 1024 }).pipe(res);
});
server.listen(0, '127.0.0.1', () => process.send!({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
process.on('disconnect', () => process.exit(0));
