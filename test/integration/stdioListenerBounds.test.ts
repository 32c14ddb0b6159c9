import { describe, expect, it } from 'vitest';
import { answerTo, jsonRpcAnswers, send, useRawStdio } from '../fixtures/rawStdio.js';
import { mcpHeaders } from '../fixtures/rawMcp.js';
import { startTestGateway } from '../fixtures/testGateway.js';

const stdio = useRawStdio('scigate-stdio-');

/** A `scigate stdio` in a fresh data directory, its session initialized as client `name`. */
async function initialized(name: string) {
  const running = stdio.start(['stdio', '--data-dir', await stdio.tempDir()]);
  send(running, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } });
  await answerTo(running, 1);
  send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return running;
}

describe('scigate source <id> (the --isolate-sources child) and bad request lines', () => {
  it('answers an unparseable line and an 11 MB one with JSON-RPC errors and keeps serving', async () => {
    const running = stdio.start(['source', 'arxiv']);
    send(running, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'child', version: '1' } } });
    expect((await answerTo(running, 1)).result.serverInfo).toBeDefined();
    send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });
    running.child.stdin!.write('\u0000\u0001 not JSON\n');
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { padding: 'z'.repeat(11 * 1024 * 1024) } });
    send(running, { jsonrpc: '2.0', id: 3, method: 'ping' });
    expect((await answerTo(running, 3)).result).toEqual({});
    expect(jsonRpcAnswers(running).filter((m) => m.id === null).map((m) => m.error.code)).toEqual([-32700, -32600]);
    running.child.stdin!.end();
    expect(await running.exited).toBe(0);
  });
});

describe('scigate stdio and bad request lines', () => {
  it('an 11 MB line is answered with a JSON-RPC error and named on stderr; the session goes on', async () => {
    const dir = await stdio.tempDir();
    const running = stdio.start(['stdio', '--data-dir', dir]);
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
    expect(jsonRpcAnswers(running).filter((m) => m.id === null).map((m) => m.error.code)).toEqual([-32600, -32700]);
    running.child.stdin!.end();
    expect(await running.exited).toBe(0);
  });

  it('an initialize the SDK refuses is refused as /mcp refuses it, not answered early; a valid one after it starts the session', async () => {
    const refusedInit = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: 5 }, clientInfo: { name: 'bad-init', version: '1' } } };
    const gateway = await startTestGateway();
    let overHttp: any;
    try {
      overHttp = await (await fetch(gateway.mcpUrl, { method: 'POST', headers: mcpHeaders(gateway), body: JSON.stringify(refusedInit) })).json();
    } finally {
      await gateway.dispose();
    }
    expect(overHttp.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid initialize params: capabilities\.roots/) });

    const running = stdio.start(['stdio', '--data-dir', await stdio.tempDir()]);
    send(running, refusedInit);
    expect((await answerTo(running, 1)).error).toEqual(overHttp.error);
    send(running, { ...refusedInit, id: 2, params: { ...refusedInit.params, capabilities: { roots: { listChanged: true } } } });
    expect((await answerTo(running, 2)).result.serverInfo).toMatchObject({ name: 'scigate' });
    send(running, { jsonrpc: '2.0', method: 'notifications/initialized' });
    send(running, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect((await answerTo(running, 3)).result.tools.length).toBeGreaterThan(0);
    expect(jsonRpcAnswers(running).filter((m) => m.id === 1)).toHaveLength(1);
    running.child.stdin!.end();
    await running.exited;
  });

  it('invalid tools/call params get -32602 naming the field, never -32603 with a schema dump', async () => {
    const running = await initialized('bad-params');
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 5 } });
    const refused = await answerTo(running, 2);
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(/^Invalid tools\/call params: name: /);
    expect(refused.error.message).not.toContain('"code"');
    running.child.stdin!.end();
    await running.exited;
  });

  it('a malformed message is answered with its own id and in words; a batch and a null id are refused; the session goes on', async () => {
    const running = await initialized('malformed');
    // Before, the SDK's line parser refused this with id null, so the client waited for id 2 forever.
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mcp__arxiv__search', arguments: { query: 'x' }, _meta: { progressToken: { a: 1 } } } });
    expect((await answerTo(running, 2)).error).toMatchObject({ code: -32600, message: expect.stringContaining('progressToken') });
    send(running, { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'verbose' } });
    expect((await answerTo(running, 3)).error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid logging\/setLevel params: level: /) });
    running.child.stdin!.write('[{"jsonrpc":"2.0","id":4,"method":"ping"}]\n');
    running.child.stdin!.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
    send(running, { jsonrpc: '2.0', id: 5, method: 'ping' });
    expect((await answerTo(running, 5)).result).toEqual({});
    const refusedWithoutId = jsonRpcAnswers(running).filter((m) => m.id === null).map((m) => m.error.message);
    expect(refusedWithoutId).toEqual([expect.stringContaining('one JSON-RPC message per line'), expect.stringContaining('id must be a string or an integer')]);
    for (const answer of jsonRpcAnswers(running)) expect(JSON.stringify(answer)).not.toContain('\\"code\\"');
    running.child.stdin!.end();
    await running.exited;
  });

  it('the sources discovered at start-up are announced with one tools/list_changed, not one per source', async () => {
    const running = await initialized('quiet');
    send(running, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await answerTo(running, 2)).result.tools.length).toBeGreaterThan(0);
    send(running, { jsonrpc: '2.0', id: 3, method: 'ping' });
    await answerTo(running, 3);
    const announced = jsonRpcAnswers(running).filter((m) => m.method === 'notifications/tools/list_changed');
    expect(announced.length).toBeLessThanOrEqual(1);
    running.child.stdin!.end();
    await running.exited;
  });
});
