import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { answerClientErrorsAsJson } from '../../gateway/listener/index.js';

/** A loopback server with the gateway's client-error answers and short timeouts (Node's are 60 s and 300 s). */
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }, (req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  answerClientErrorsAsJson(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Writes `raw` and nothing more; resolves with all the server answered once it closed the connection. */
function sendRaw(raw: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]), body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) }));
    socket.write(raw);
  });
}

describe("requests Node's HTTP server refuses before any route", () => {
  it('a request whose headers stall is answered 408 in the JSON error shape, saying it was too slow, not malformed', async () => {
    const answer = await sendRaw('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    expect(answer.status).toBe(408);
    expect(answer.body.error.message).toBe('The request did not arrive in full in time (headers within 0.3 s, the whole request within 0.6 s); send it again without pausing mid-request.');
  });

  it('a request whose body stalls is answered 408 the same way', async () => {
    const answer = await sendRaw('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":');
    expect(answer.status).toBe(408);
    expect(answer.body.error.message).toMatch(/did not arrive in full in time/);
  });

  it('a request that is not HTTP/1.1 is still 400, saying to check the request line', async () => {
    const answer = await sendRaw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('check the request line') });
  });
});
