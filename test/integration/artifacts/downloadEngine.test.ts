import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mirroredUrl, runDownload, type DownloadEnvironment, type DownloadObserver } from '../../../gateway/artifacts/index.js';
import { systemClock } from '../../../gateway/core/index.js';
import { FileWorkspace } from '../../../storage/index.js';
import { startFileServer, syntheticBytes, type FileServer } from '../../fixtures/fileServer.js';

const PUBLIC = 'https://files.example.org';
const ALLOWED = ['files.example.org'];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the download engine against a loopback file server', () => {
  let server: FileServer;
  let offList: FileServer;
  let dataDir: string;
  let workspace: FileWorkspace;
  let states: string[];
  let slots: number;
  beforeEach(async () => {
    server = await startFileServer();
    offList = await startFileServer();
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-dl-'));
    workspace = new FileWorkspace(dataDir);
    states = [];
    slots = 0;
  });
  afterEach(async () => {
    await server.close();
    await offList.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = (): DownloadEnvironment => ({
    clock: systemClock,
    random: () => 0,
    physicalUrl: mirroredUrl({ [PUBLIC]: server.origin, 'https://evil.example': offList.origin }),
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 50 },
    stallTimeoutMs: 30_000,
    slot: async () => {
      slots += 1;
      return () => {};
    },
  });
  const observer: DownloadObserver = {
    transition: async (state) => void states.push(state),
    progress: () => {},
  };
  const download = async (path: string, extra: { maxBytes?: number; checksum?: { algorithm: 'sha256' | 'md5' | 'sha1'; value: string } } = {}) => {
    const part = await workspace.openPartial('ses_1', 'out.bin');
    try {
      return await runDownload(
        { url: `${PUBLIC}${path}`, allowedDomains: ALLOWED, maxBytes: extra.maxBytes ?? 10_000_000, ...(extra.checksum ? { checksum: extra.checksum } : {}) },
        part, env(), observer, new AbortController().signal,
      );
    } finally {
      await part.close();
    }
  };
  const partBytes = () => readFile(join(dataDir, 'workspaces/ses_1/out.bin.part'));

  it('resumes a connection dropped at 40 % with a Range request, and the sha256 matches', async () => {
    const body = syntheticBytes(0, 1_000_000);
    server.serve('/paper.pdf', { body, dropAt: 400_000 });
    const outcome = await download('/paper.pdf');
    expect(outcome).toMatchObject({ sizeBytes: body.length, sha256: sha256(body) });
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([[null, 200], ['bytes=400000-', 206]]);
    expect(sha256(await partBytes())).toBe(sha256(body));
    expect(states).toEqual(['running', 'retrying', 'running', 'verifying']);
    expect(slots).toBe(2);
  });

  it('a resumed range that ends short, its total unknown (`/*`), is resumed again, not saved as the whole file', async () => {
    const body = syntheticBytes(0, 1_000_000);
    server.serve('/cut.bin', { body, dropAt: 400_000, truncateFirstRangeAt: 700_000 });
    const outcome = await download('/cut.bin');
    expect(outcome).toMatchObject({ sizeBytes: body.length, sha256: sha256(body) });
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([[null, 200], ['bytes=400000-', 206], ['bytes=700000-', 206]]);
  });

  it('resumes from a part file left by an earlier run, re-hashing what is there', async () => {
    const body = syntheticBytes(0, 300_000);
    const part = await workspace.openPartial('ses_1', 'out.bin');
    await part.write(body.subarray(0, 120_000));
    await part.close();
    server.serve('/f', { body });
    const outcome = await download('/f');
    expect(outcome.sha256).toBe(sha256(body));
    expect(server.requests.map((r) => r.range)).toEqual(['bytes=120000-']);
  });

  it('hashes a multi-MiB file from the part file as it grows, across a drop and a Range resume, in sha256 and md5', async () => {
    // The hasher reads the part file back a MiB at a time behind the writer; the resume continues it.
    const body = syntheticBytes(0, 12 * 1024 * 1024 + 4321);
    const dropAt = 5 * 1024 * 1024 + 123;
    server.serve('/big.bin', { body, dropAt });
    const md5 = createHash('md5').update(body).digest('hex');
    const outcome = await download('/big.bin', { maxBytes: 20_000_000, checksum: { algorithm: 'md5', value: md5 } });
    expect(outcome).toMatchObject({ sizeBytes: body.length, sha256: sha256(body) });
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([[null, 200], [`bytes=${dropAt}-`, 206]]);
    expect((await partBytes()).equals(body)).toBe(true);
  });

  it('starts over when the server ignores the Range', async () => {
    const body = syntheticBytes(0, 200_000);
    const part = await workspace.openPartial('ses_1', 'out.bin');
    await part.write(Buffer.from('garbage that is not the file'));
    await part.close();
    server.serve('/f', { body, ignoreRange: true });
    expect((await download('/f')).sha256).toBe(sha256(body));
    expect((await partBytes()).equals(body)).toBe(true);
  });

  it('follows a redirect inside the allowed domains, and stops at one off the list without contacting that host', async () => {
    const body = Buffer.from('the real file');
    server.serve('/moved', { body: Buffer.alloc(0), redirectTo: `${PUBLIC}/real` });
    server.serve('/real', { body });
    expect((await download('/moved')).sha256).toBe(sha256(body));
    server.serve('/away', { body: Buffer.alloc(0), redirectTo: 'https://evil.example/steal' });
    offList.serve('/steal', { body });
    await expect(download('/away')).rejects.toMatchObject({ code: 'upstream_error', details: { reason: 'domain_not_allowed', host: 'evil.example' } });
    server.serve('/plain', { body: Buffer.alloc(0), redirectTo: 'http://files.example.org/real' });
    await expect(download('/plain')).rejects.toMatchObject({ details: { reason: 'not_https' } });
    expect(offList.requests).toEqual([]);
  });

  it('stops a lying server at the size limit mid-stream', async () => {
    server.serve('/liar', { body: syntheticBytes(0, 3_000_000), hideLength: true });
    await expect(download('/liar', { maxBytes: 100_000 })).rejects.toMatchObject({ code: 'response_too_large', details: { reason: 'size_limit' } });
    expect((await partBytes()).length).toBeLessThanOrEqual(100_000);
    server.serve('/announced', { body: syntheticBytes(0, 300_000) });
    await expect(download('/announced', { maxBytes: 100_000 })).rejects.toMatchObject({ code: 'response_too_large' });
  });

  it('verifies sha256, sha1 and md5 checksums and refuses a mismatch', async () => {
    const body = Buffer.from('checksummed bytes');
    server.serve('/c', { body });
    for (const algorithm of ['sha256', 'sha1', 'md5'] as const) {
      const value = createHash(algorithm).update(body).digest('hex');
      await workspace.discardPartial('ses_1', 'out.bin');
      expect((await download('/c', { checksum: { algorithm, value } })).sha256).toBe(sha256(body));
    }
    await workspace.discardPartial('ses_1', 'out.bin');
    await expect(download('/c', { checksum: { algorithm: 'md5', value: '0'.repeat(32) } })).rejects.toMatchObject({
      code: 'upstream_error', details: { reason: 'checksum_mismatch' },
    });
  });

  it('retries 503 honouring Retry-After, and gives up on 404 at once', async () => {
    const body = Buffer.from('eventually');
    server.serve('/busy', { body, failFirst: { times: 2, status: 503, retryAfterSeconds: 0 } });
    expect((await download('/busy')).attempts).toBe(3);
    await workspace.discardPartial('ses_1', 'out.bin');
    await expect(download('/missing')).rejects.toMatchObject({ code: 'not_found', attempts: 1 });
    server.serve('/always', { body, failFirst: { times: 99, status: 500 } });
    await expect(download('/always')).rejects.toMatchObject({
      code: 'upstream_unavailable', attempts: 3,
      message: expect.stringMatching(/^The file server answered 500\. Gave up after 3 attempts; .*POST \/api\/download-jobs\/<id>\/retry/),
    });
  });

  it('reads Retry-After as provider requests do: a wait no server means is not passed on', async () => {
    // 23 digits (1e26 ms) and a date 73 years away: ignored, so the job's own backoff applies.
    for (const [path, header] of [['/forever', '99999999999999999999999'], ['/2099', 'Wed, 21 Oct 2099 07:28:00 GMT']] as const) {
      server.serve(path, { body: Buffer.from('x'), failFirst: { times: 99, status: 429, retryAfterSeconds: header } });
      const failed = (await download(path).catch((error: unknown) => error)) as { code: string; retryAfterMs?: number };
      expect(failed).toMatchObject({ code: 'rate_limited', attempts: 3 });
      expect(failed.retryAfterMs).toBeUndefined();
    }
  });

  it('drops a stalled attempt one stall limit after its last byte, not up to twice that', async () => {
    const stallTimeoutMs = 600;
    const sleeps: number[] = [];
    const recording = { now: systemClock.now, after: systemClock.after, sleep: (ms: number, signal?: AbortSignal) => (sleeps.push(ms), systemClock.sleep(ms, signal)) };
    // The first answer: 1 KB at once, 1 KB 200 ms later, then nothing (the connection stays open);
    // each Range resume: its headers, then nothing.
    const stalling = createServer((req, res) => {
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      res.writeHead(from > 0 ? 206 : 200, {
        'content-length': String(100_000 - from), ...(from > 0 ? { 'content-range': `bytes ${from}-99999/100000` } : {}),
      });
      if (from > 0) return void res.flushHeaders();
      res.write(Buffer.alloc(1000, 1));
      setTimeout(() => res.write(Buffer.alloc(1000, 2)), 200);
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const physicalUrl = mirroredUrl({ [PUBLIC]: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}` });
    const part = await workspace.openPartial('ses_1', 'out.bin');
    try {
      const stalled = runDownload({ url: `${PUBLIC}/stalls`, allowedDomains: ALLOWED, maxBytes: 10_000_000 }, part, { ...env(), clock: recording, physicalUrl, stallTimeoutMs }, observer, new AbortController().signal);
      await expect(stalled).rejects.toMatchObject({
        code: 'upstream_timeout', attempts: 3, message: expect.stringMatching(/^The file server sent nothing for 600 ms\. Gave up after 3 attempts/),
      });
    } finally {
      stalling.closeAllConnections();
      stalling.close();
      await part.close();
    }
    // One whole-limit wait per attempt, from its start; after an attempt's last byte the watchdog
    // waits only for what is left of the limit (a whole limit again made the stall last up to two).
    // "Whole" within 50 ms: the clock may tick between the attempt's start and its first wait.
    const whole = (ms: number) => ms > stallTimeoutMs - 50;
    expect(sleeps.filter(whole)).toHaveLength(3);
    expect(sleeps.filter((ms) => ms > 100 && !whole(ms)).length).toBeGreaterThan(0);
  });

  it('refuses a candidate URL that is not https on an allowed domain before any request', async () => {
    const part = await workspace.openPartial('ses_1', 'out.bin');
    for (const url of ['http://files.example.org/x', 'https://evil.example/x', 'not a url']) {
      await expect(runDownload({ url, allowedDomains: ALLOWED, maxBytes: 10 }, part, env(), observer, new AbortController().signal)).rejects.toMatchObject({
        code: 'upstream_error',
      });
    }
    await part.close();
    expect([...server.requests, ...offList.requests]).toEqual([]);
  });

  it('receives, writes and hashes off the main thread: the part file keeps growing while the event loop is blocked', async () => {
    // The file server runs in its own process (one in this thread would stop with it): 1 MiB at
    // once, then 64 KiB every 20 ms up to 3 MiB.
    const total = 3 * 1024 * 1024;
    const child = spawn(process.execPath, ['-e', `
      const body = Buffer.alloc(${total}, 7);
      require('node:http').createServer((req, res) => {
        res.writeHead(200, { 'content-length': String(body.length) });
        let at = 1 << 20;
        res.write(body.subarray(0, at));
        const timer = setInterval(() => {
          res.write(body.subarray(at, at + 65536));
          at += 65536;
          if (at >= body.length) { clearInterval(timer); res.end(); }
        }, 20);
      }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve) => child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())));
      const partPath = join(dataDir, 'workspaces/ses_1/out.bin.part');
      let sizeWhileBlocked = 0;
      const blocking: DownloadObserver = {
        transition: async () => {},
        // At the first progress report the main thread stops (no timers, no I/O callbacks) until the
        // whole file is in the part file, or 60 s: only another thread can have written it meanwhile.
        progress: () => {
          if (sizeWhileBlocked > 0) return;
          const until = Date.now() + 60_000;
          while (statSync(partPath).size < total && Date.now() < until) sizeWhileBlocked = statSync(partPath).size;
          sizeWhileBlocked = statSync(partPath).size;
        },
      };
      const part = await workspace.openPartial('ses_1', 'out.bin');
      const environment = { ...env(), physicalUrl: mirroredUrl({ [PUBLIC]: `http://127.0.0.1:${port}` }) };
      const outcome = await runDownload({ url: `${PUBLIC}/f`, allowedDomains: ALLOWED, maxBytes: total }, part, environment, blocking, new AbortController().signal).finally(() => part.close());
      expect(sizeWhileBlocked).toBe(total);
      expect(outcome).toMatchObject({ sizeBytes: total, sha256: sha256(Buffer.alloc(total, 7)) });
    } finally {
      child.kill();
    }
  });
});
