/**
 * The floor for relaying an MCP call on this machine: streamable HTTP in, one stdio line out to the
 * same echo server, its line back; node:http and a pipe only (no SDK, no sessions, no audit, no
 * checks). Not a product, a yardstick: each POSTed JSON-RPC message is written as one line (a
 * request under an id of the relay's, as clients' ids collide), a request is answered with the
 * server's answer to it, a notification with 202, and GET (the optional server stream) with 405,
 * which the SDK client accepts.
 *
 * Run as `node bareRelay.js <port> <command> [args…]`; prints nothing, answers once it listens.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';

const [port, command, ...args] = process.argv.slice(2);
const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
/** Requests in flight by the relay's own id (clients' ids collide), with the client's id to answer with. */
const waiting = new Map<number, { res: ServerResponse; id: string | number }>();
let lastId = 0;

createInterface({ input: child.stdout! }).on('line', (line) => {
  const message = JSON.parse(line) as { id?: number | string };
  const request = typeof message.id === 'number' ? waiting.get(message.id) : undefined;
  if (!request) return;
  waiting.delete(message.id as number);
  const body = JSON.stringify({ ...message, id: request.id });
  request.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
});

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string | number };
    if (message.id === undefined) {
      res.writeHead(202).end();
      child.stdin!.write(`${JSON.stringify(message)}\n`);
      return;
    }
    waiting.set(++lastId, { res, id: message.id });
    child.stdin!.write(`${JSON.stringify({ ...message, id: lastId })}\n`);
  });
}).listen(Number(port), '127.0.0.1');

child.once('exit', () => process.exit(1));
