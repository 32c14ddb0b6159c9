import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';

let running: CliProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (running && running.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The JSON-RPC messages `scigate stdio` wrote to stdout so far. */
function answers(process: CliProcess): any[] {
  return process.output().split('\n').filter((line) => line.includes('"jsonrpc":"2.0"')).map((line) => JSON.parse(line));
}

async function answerTo(process: CliProcess, id: number | null): Promise<any> {
  await process.waitFor(new RegExp(`"jsonrpc":"2\\.0","id":${id}[,}]`), 60_000);
  return answers(process).find((m) => m.id === id);
}

const send = (process: CliProcess, message: unknown) => process.child.stdin!.write(`${JSON.stringify(message)}\n`);

describe('scigate stdio and request lines over the limit', () => {
  it('an 11 MB line is answered with a JSON-RPC error and named on stderr; the session goes on', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-stdio-bounds-'));
    running = spawnCli(['stdio', '--data-dir', dir]);
    send(running, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bounds', version: '1' } } });
    expect((await answerTo(running, 1)).result.serverInfo).toBeDefined();
    send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });

    const huge = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: { text: 'z'.repeat(11 * 1024 * 1024) } } };
    send(running, huge);
    const refused = await answerTo(running, null);
    expect(refused.error).toMatchObject({ code: -32600, message: expect.stringMatching(/Request too large: a line of more than 10485760 bytes/) });
    // Named on stderr too, as a warn log line.
    await running.waitFor(/"level":40[^\n]*"msg":"Request too large/);

    send(running, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect((await answerTo(running, 3)).result.tools.length).toBeGreaterThan(0);
    expect(running.child.exitCode).toBeNull();

    running.child.stdin!.write('this is not JSON\n');
    await running.waitFor(/"code":-32700/, 60_000);
    expect(answers(running).filter((m) => m.id === null).map((m) => m.error.code)).toEqual([-32600, -32700]);
    running.child.stdin!.end();
    expect(await running.exited).toBe(0);
  });
});
