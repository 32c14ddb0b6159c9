import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioServerTransport, MAX_QUEUED_NOTIFICATION_BYTES } from '../../../gateway/front/index.js';
import { silentLogger } from '../../../gateway/core/index.js';
import { AnswerStream } from '../../../gateway/listener/answerStream.js';

const progress = (i: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: i, message: 'x'.repeat(300) } }) as JSONRPCMessage;
const response = { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'done' }] } } as JSONRPCMessage;
/** 20,000 progress notifications: about 7 MB, several times the queue bound. */
const FLOOD = 20_000;

let server: Server | undefined;
afterEach(async () => {
  // A failed test leaves its client unread: end that connection too, or close() waits for it.
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A real HTTP answer whose client does not read until `resume`. */
async function unreadAnswer(): Promise<{ res: ServerResponse; body: () => Promise<string> }> {
  let answer!: ServerResponse;
  const answered = new Promise<void>((resolve) => {
    server = createServer((_req, res) => ((answer = res), resolve()));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server!.address() as { port: number };
  const reply = new Promise<IncomingMessage>((resolve) => request({ port, host: '127.0.0.1', method: 'POST' }, resolve).end());
  await answered;
  return {
    res: answer,
    body: async () => {
      const res = await reply;
      let text = '';
      for await (const chunk of res) text += chunk;
      return text;
    },
  };
}

describe('a client that reads slower than progress arrives', () => {
  it('the HTTP answer drops notifications past the queue bound, and still sends the response', async () => {
    const { res, body } = await unreadAnswer();
    const stream = new AnswerStream(res, { sessionId: 's', jsonAllowed: false, onClientGone: () => {} });
    for (let i = 1; i <= FLOOD; i += 1) stream.write(progress(i), false);
    expect(res.writableLength).toBeLessThan(2 * MAX_QUEUED_NOTIFICATION_BYTES);
    stream.write(response, true);
    const events = (await body()).split('\n\n').filter(Boolean);
    expect(events.length).toBeLessThan(FLOOD / 2);
    expect(events.at(-1)).toBe(`event: message\ndata: ${JSON.stringify(response)}`);
  });

  it('the stdio transport drops notifications while its output is backed up, and still sends the response', async () => {
    const output = new PassThrough({ highWaterMark: 64 * 1024 });
    const transport = new BoundedStdioServerTransport({ input: new PassThrough(), output, log: silentLogger });
    for (let i = 1; i <= FLOOD; i += 1) void transport.send(progress(i));
    expect(output.writableLength).toBeLessThan(2 * MAX_QUEUED_NOTIFICATION_BYTES);
    void transport.send(response);
    output.end();
    const lines = (await output.toArray()).join('').trim().split('\n');
    expect(lines.length).toBeLessThan(FLOOD / 2);
    expect(lines.at(-1)).toBe(JSON.stringify(response));
  });

  it('the stdio transport waits for one drain however many answers queue behind a slow reader', async () => {
    const output = new PassThrough({ highWaterMark: 1024 });
    const transport = new BoundedStdioServerTransport({ input: new PassThrough(), output, log: silentLogger });
    const answers = Array.from({ length: 50 }, (_, i) => transport.send({ ...response, id: i, result: { text: 'x'.repeat(2048) } }));
    // One listener each would be 50, and Node's leak warning on stderr past 10.
    expect(output.listenerCount('drain')).toBe(1);
    output.resume();
    await Promise.all(answers);
    expect(output.listenerCount('drain')).toBe(0);
  });
});
