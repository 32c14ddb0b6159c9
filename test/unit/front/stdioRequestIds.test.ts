import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { silentLogger } from '../../../gateway/core/index.js';
import { serveStdio, type StdioRuntime } from '../../../gateway/front/index.js';

/** A stdio session over in-process streams whose runtime never finishes building: tools/list stays in flight. */
function session() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: any[] = [];
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    answers.push(...lines.filter(Boolean).map((line) => JSON.parse(line)));
  });
  const served = serveStdio({
    version: '9.9.9', projectId: 'p', newId: (prefix) => `${prefix}_1`, log: silentLogger, input: stdin, output: stdout,
    runtime: () => new Promise<StdioRuntime>(() => {}),
  });
  served.catch(() => {});
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ids', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answerTo = (id: number, nth = 0) => vi.waitFor(() => {
    const found = answers.filter((m) => m.id === id && !('method' in m))[nth];
    if (!found) throw new Error(`no answer ${nth} to ${id} yet: ${JSON.stringify(answers).slice(0, 300)}`);
    return found;
  }, { timeout: 60_000, interval: 5 });
  return { send, answerTo, answers, close: () => stdin.end() };
}

describe('stdio: a request id still running in the session', () => {
  it('is refused with that id, in words; once the first is cancelled the id may be used again', async () => {
    const s = session();
    await s.answerTo(1);
    s.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    s.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(await s.answerTo(5)).toEqual({
      jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid Request: id 5 belongs to a request still running in this session; send each request with a new id.' },
    });
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    // The SDK server hears the cancellation a microtask later: answered, ping 6 shows it has.
    s.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
    await s.answerTo(6);
    s.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(await s.answerTo(5, 1)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    // An answered request frees its id as well.
    s.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(await s.answerTo(5, 2)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    s.close();
  });
});
