import { describe, expect, it, vi } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../../gateway/core/index.js';
import { checkRpcMessage, serveStdio, type StdioRuntime } from '../../../gateway/front/index.js';
import { SUPPORTED_PROTOCOL_VERSIONS, answerInitializeEarly } from '../../../gateway/handshake/index.js';

const initialize = (id: number | string, protocolVersion: unknown = '2025-06-18') =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'early', version: '1' } } });
/** An initialize with `params` (over a valid base) and `envelope` keys changed. */
const initializeWith = (params: Record<string, unknown>, envelope: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'early', version: '1' }, ...params }, ...envelope,
});
const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

function recordingLog() {
  const warnings: Array<{ obj: object; msg?: string }> = [];
  const log: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (obj, msg) => void warnings.push({ obj, msg }), child: () => log };
  return { log, warnings };
}

/**
 * A stdio session over in-process streams: `early` answers the first line before the session's SDK
 * server exists (as `scigate stdio` does), otherwise the SDK server reads everything itself. No
 * runtime is built: these requests do not need one.
 */
async function session(input: string, { early }: { early: boolean }) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  });
  stdin.write(input);
  const handshake = early ? await answerInitializeEarly({ input: stdin, output: stdout, version: '9.9.9' }) : undefined;
  const linesBeforeSdk = [...lines];
  const { log, warnings } = recordingLog();
  const served = serveStdio({
    version: '9.9.9', projectId: 'p', newId: (prefix) => `${prefix}_1`, log, input: stdin, output: stdout,
    runtime: () => Promise.reject(new Error('no runtime in this test')),
    ...(handshake ? { early: handshake } : {}),
  });
  served.catch(() => {});
  return { stdin, lines, linesBeforeSdk, warnings, handshake, close: () => stdin.end() };
}

const answers = (lines: string[], id: number | string) => lines.map((l) => JSON.parse(l)).filter((m) => m.id === id && !('method' in m));

describe('the initialize answer given before the SDK loads (gateway/handshake)', () => {
  it('negotiates the revisions the SDK supports, newest first', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it.each([...SDK_VERSIONS, '2099-01-01'])('is byte for byte the SDK server answer for revision %s, and is sent once', async (version) => {
    const withSdk = await session(`${initialize(1, version)}\n`, { early: false });
    await vi.waitFor(() => expect(answers(withSdk.lines, 1)).toHaveLength(1), { timeout: 60_000 });

    const early = await session(`${initialize(1, version)}\n${ping(2)}\n`, { early: true });
    // Answered before the SDK server was created: exactly what the SDK server would have written.
    expect(early.linesBeforeSdk).toEqual(withSdk.lines);
    await vi.waitFor(() => expect(answers(early.lines, 2)).toHaveLength(1), { timeout: 60_000 });
    expect(answers(early.lines, 1)).toHaveLength(1);
    expect(early.warnings).toEqual([]);
    withSdk.close();
    early.close();
  });

  it('the SDK server still sees initialize: later requests and a string id work as before', async () => {
    const early = await session(`${initialize('a')}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`, { early: true });
    expect(early.linesBeforeSdk).toHaveLength(1);
    expect(answers(early.linesBeforeSdk, 'a')[0].result.serverInfo).toEqual({ name: 'scigate', version: '9.9.9' });
    // Bytes after the handshake reach the SDK server through the resumed input.
    early.stdin.write(`${ping(3)}\n`);
    await vi.waitFor(() => expect(answers(early.lines, 3)).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]), { timeout: 60_000 });
    expect(answers(early.lines, 'a')).toHaveLength(1);
    early.close();
  });

  it.each([
    ['a ping', `${ping(1)}\n`],
    ['an initialize whose protocolVersion is not a string', `${initialize(1, 7)}\n`],
    ['a line that is not JSON', 'not json\n'],
  ])('leaves %s to the SDK server, which answers it as before', async (_what, input) => {
    const early = await session(input, { early: true });
    expect(early.handshake!.answered).toBeUndefined();
    expect(early.linesBeforeSdk).toEqual([]);
    await vi.waitFor(() => expect(early.lines).toHaveLength(1), { timeout: 60_000 });
    const withSdk = await session(input, { early: false });
    await vi.waitFor(() => expect(withSdk.lines).toEqual(early.lines), { timeout: 60_000 });
    early.close();
    withSdk.close();
  });

  it('refuses, as the SDK server and /mcp do, an initialize whose capabilities the SDK rejects: the client is not told it succeeded', async () => {
    const input = `${JSON.stringify(initializeWith({ capabilities: { roots: 5 } }))}\n`;
    const early = await session(input, { early: true });
    expect(early.handshake!.answered).toBeUndefined();
    await vi.waitFor(() => expect(answers(early.lines, 1)).toHaveLength(1), { timeout: 60_000 });
    expect(answers(early.lines, 1)[0].error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid initialize params: capabilities\.roots/) });
    const withSdk = await session(input, { early: false });
    await vi.waitFor(() => expect(withSdk.lines).toEqual(early.lines), { timeout: 60_000 });
    early.close();
    withSdk.close();
  });

  it.each([
    ['a plain one', true, initializeWith({})],
    ['every capability the SDK knows, in its shape, and one it does not know', true, initializeWith({ capabilities: {
      experimental: { x: {} }, extensions: { 'a/b': {} }, sampling: { context: {}, tools: {} }, roots: { listChanged: true },
      elicitation: { form: { applyDefaults: true }, url: {} }, vendorThing: 5,
    } })],
    ['clientInfo with a title, a website, a description and an unknown field; params with an unknown field', true, initializeWith({
      clientInfo: { name: 'a', version: '1', title: 't', websiteUrl: 'https://example.org', description: 'd', extra: 1 }, extra: 1,
    })],
    ['capabilities.roots a number', false, initializeWith({ capabilities: { roots: 5 } })],
    ['capabilities.roots.listChanged a string', false, initializeWith({ capabilities: { roots: { listChanged: 'yes' } } })],
    ['capabilities.sampling an array', false, initializeWith({ capabilities: { sampling: [] } })],
    ['capabilities.elicitation.form an array', false, initializeWith({ capabilities: { elicitation: { form: [] } } })],
    ['capabilities.elicitation.form.applyDefaults a string', false, initializeWith({ capabilities: { elicitation: { form: { applyDefaults: 'y' } } } })],
    ['capabilities.experimental an array', false, initializeWith({ capabilities: { experimental: [] } })],
    ['capabilities.extensions with a string value', false, initializeWith({ capabilities: { extensions: { 'a/b': 'on' } } })],
    ['capabilities null', false, initializeWith({ capabilities: null })],
    ['clientInfo.title null', false, initializeWith({ clientInfo: { name: 'a', version: '1', title: null } })],
    ['clientInfo.version missing', false, initializeWith({ clientInfo: { name: 'a' } })],
    ['a key the JSON-RPC envelope does not have', false, initializeWith({}, { extra: 1 })],
    ['an id that is not a safe integer', false, initializeWith({}, { id: 1.5 })],
    // Not known to be wrong, but shapes the early check leaves to the SDK rather than copy.
    ['a task capability', false, initializeWith({ capabilities: { tasks: { list: {} } } })],
    ['clientInfo icons', false, initializeWith({ clientInfo: { name: 'a', version: '1', icons: [{ src: 'https://example.org/i.png' }] } })],
    ['params._meta', false, initializeWith({ _meta: { progressToken: 1 } })],
  ])('%s: answered early %s, and only ever when the SDK accepts it', async (_what, answered, message) => {
    const stdin = new PassThrough();
    stdin.write(`${JSON.stringify(message)}\n`);
    const read = await answerInitializeEarly({ input: stdin, output: new PassThrough(), version: '1' });
    expect(read.answered !== undefined).toBe(answered);
    if (answered) expect(checkRpcMessage(message)).toBeUndefined();
  });

  it('an initialize split over several chunks is answered once the line is complete', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const line = initialize(1);
    stdin.write(line.slice(0, 20));
    const handshake = answerInitializeEarly({ input: stdin, output: stdout, version: '1' });
    stdin.write(line.slice(20));
    stdin.write(`\n${ping(2)}\n`);
    const read = await handshake;
    expect(read.answered?.id).toBe(1);
    expect(Buffer.concat(read.chunks).toString()).toBe(`${line}\n${ping(2)}\n`);
  });

  it('an input that ends before a full line is answered by nobody and reported as ended', async () => {
    const stdin = new PassThrough();
    const handshake = answerInitializeEarly({ input: stdin, output: new PassThrough(), version: '1' });
    stdin.end(initialize(1));
    const read = await handshake;
    expect(read.ended).toBe(true);
    expect(read.answered).toBeUndefined();
  });

  it('an SDK answer that differs from the early one is named in a warning (the copy is out of date)', async () => {
    const early = await session(`${initialize(1)}\n`, { early: true });
    // Stands for a newer SDK: the early answer on record no longer matches the server's.
    early.handshake!.answered!.result.protocolVersion = '1999-01-01';
    await vi.waitFor(() => expect(early.warnings.map((w) => w.msg)).toEqual([expect.stringMatching(/differs from the SDK server's; update gateway\/handshake/)]), { timeout: 60_000 });
    expect(answers(early.lines, 1)).toHaveLength(1);
    early.close();
  });

  it('a client that closed stdout before the early answer: the failed write crashes nothing, and the session ends without waiting for stdin', async () => {
    const stdin = new PassThrough();
    const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const stdout = new Writable({ write: (_chunk, _encoding, callback) => void setImmediate(() => callback(epipe())) });
    stdin.write(`${initialize(1)}\n${ping(2)}\n`);
    const handshake = await answerInitializeEarly({ input: stdin, output: stdout, version: '9.9.9' });
    // The write fails after the handshake resolved, before the session's transport exists.
    await new Promise((resolve) => stdout.once('close', resolve));
    expect(handshake.outputFailed?.()).toBe(true);
    const { log, warnings } = recordingLog();
    const runtime = { handlersFor: () => () => ({ closed: () => {} }), sessions: { get: async () => undefined }, clock: { now: () => 0 }, log } as unknown as StdioRuntime;
    await serveStdio({ version: '9.9.9', projectId: 'p', newId: (prefix) => `${prefix}_1`, log, input: stdin, output: stdout, runtime: async () => runtime, early: handshake });
    expect(warnings.map((w) => w.msg)).toEqual(['the client closed its end of stdout; the session ends, as when stdin closes']);
  });
});
