import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/**
 * How long an SSE answer may hold its headers back waiting for its first event. Most answers are
 * ready well within it, and then headers, event and end leave in one socket write; a call that
 * waits longer (a human deciding) gets its headers at once, so no client times out on them.
 */
export const HEADERS_HOLD_MS = 100;

/**
 * The SDK's streamable HTTP transport served straight from Node's request and response. The SDK's
 * own Node wrapper goes through @hono/node-server, which builds a request listener per request and
 * flushes an SSE answer's headers alone before its body: two socket writes (and their wake-ups)
 * per tool call where one does. The protocol itself is the SDK's web-standard transport, untouched.
 */
export class NodeStreamableTransport extends WebStandardStreamableHTTPServerTransport {
  /** Answers one HTTP request; `parsedBody` is the JSON body already read by the router. */
  async handleNodeRequest(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const response = await this.handleRequest(webRequestOf(req, parsedBody), parsedBody === undefined ? {} : { parsedBody });
    await writeResponse(response, res);
  }
}

function webRequestOf(req: IncomingMessage, parsedBody: unknown): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  // The router has read any body; a POST without one reaches the SDK as empty (its parse error answers it).
  const body = req.method === 'POST' && parsedBody === undefined ? '' : undefined;
  return new Request(url, { method: req.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A client that goes away cancels the stream: the SDK then forgets it (and stops its keep-alive).
  const cancel = () => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  const streaming = headers['content-type']?.startsWith('text/event-stream') === true;
  const hold = streaming ? setTimeout(() => res.flushHeaders(), HEADERS_HOLD_MS) : undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      clearTimeout(hold);
      // Corked until the event loop's next turn: an answer's event and the end of its stream, which
      // the SDK closes a few promise steps later, go out together.
      res.cork();
      setImmediate(() => res.uncork());
      if (!res.write(value)) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    clearTimeout(hold);
    res.off('close', cancel);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
