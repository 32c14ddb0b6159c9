import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answerTo, jsonRpcAnswers, send, useRawStdio } from '../fixtures/rawStdio.js';

const stdio = useRawStdio('scigate-stdio-');
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup', version: '1' } } };

describe('scigate stdio answers before its runtime is built', () => {
  it('initialize is answered while storage is still opening; tools/list waits, then names the cause; exit code 1', async () => {
    const dir = await stdio.tempDir();
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    // Opening storage reads the database file; as a FIFO with no writer, the read blocks until the test writes.
    const fifo = join(dataDir, 'scigate.db');
    execFileSync('mkfifo', [fifo]);
    const running = stdio.start(['stdio', '--data-dir', dataDir]);

    send(running, initialize);
    expect((await answerTo(running, 1)).result.serverInfo).toMatchObject({ name: 'scigate' });
    send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/list' });

    // The runtime can finish only now: the file is damaged, so it fails.
    await writeFile(fifo, 'not a database');
    const listed = await answerTo(running, 2);
    expect(listed.error).toMatchObject({
      code: -32603,
      message: `scigate could not start: cannot open the storage in ${dataDir}: ${fifo} could not be read (file is not a database); restore the data directory from a backup, or move it aside and start again to begin afresh.`,
    });
    await running.waitFor(/scigate: could not start: cannot open the storage/);

    send(running, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'mcp__arxiv__search', arguments: { query: 'x' } } });
    expect((await answerTo(running, 3)).error.message).toMatch(/scigate could not start/);
    running.child.stdin!.end();
    expect(await running.exited).toBe(1);
  });

  it('a data directory that cannot be used still answers initialize, then every request names it', async () => {
    const dir = await stdio.tempDir();
    const notADir = join(dir, 'file');
    await writeFile(notADir, 'x');
    const running = stdio.start(['stdio', '--data-dir', notADir]);

    send(running, initialize);
    expect((await answerTo(running, 1)).result.serverInfo).toBeDefined();
    send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await answerTo(running, 2)).error.message).toContain(`scigate could not start: The data directory ${notADir} is a file, not a directory`);
    running.child.stdin!.end();
    expect(await running.exited).toBe(1);
  });

  it('initialize, initialized and tools/list written in one go are each answered once: the early answer, then the SDK server', async () => {
    const running = stdio.start(['stdio', '--data-dir', await stdio.tempDir()]);
    const lines = [initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];
    running.child.stdin!.write(lines.map((m) => `${JSON.stringify(m)}\n`).join(''));
    expect((await answerTo(running, 2)).result.tools.length).toBeGreaterThan(0);
    const toInitialize = jsonRpcAnswers(running).filter((m) => m.id === 1);
    expect(toInitialize).toHaveLength(1);
    expect(toInitialize[0].result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'scigate' } });
    expect(running.output()).not.toMatch(/differs from the SDK server/);
    running.child.stdin!.end();
    expect(await running.exited).toBe(0);
  });
});
