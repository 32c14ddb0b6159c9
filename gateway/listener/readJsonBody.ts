import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonBody } from './httpGuards.js';

/** Reads a body into `req.body` and calls `next` (with the reading error, shaped as body-parser's, if any). */
export type BodyReader = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => void;

/** `application/json`, optionally with `charset=utf-8`: what MCP clients send, and all the fast path reads. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

/**
 * jsonBody (body-parser) with a fast path for the body every MCP client sends: plain UTF-8 JSON
 * of a declared length within `maxBytes`, neither chunked nor compressed. That one is read and
 * parsed here, with body-parser's strict-JSON rule and error shape (so the edge answers it with
 * the same JSON-RPC error); any other body (chunked, gzip, another charset, too large, not JSON)
 * goes to jsonBody, which refuses or decodes it exactly as before.
 */
export function readJsonBody(options: { maxBytes: number }): BodyReader {
  const fallback = jsonBody(options);
  return (req, res, next) => {
    const { headers } = req;
    const length = Number(headers['content-length']);
    const plain =
      length > 0 && length <= options.maxBytes && headers['transfer-encoding'] === undefined &&
      (headers['content-encoding'] === undefined || headers['content-encoding'] === 'identity') &&
      PLAIN_JSON.test(headers['content-type'] ?? '');
    if (!plain) return fallback(req, res, next);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('aborted', onFailure);
      next(error);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      try {
        req.body = parseStrictJson((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'));
        finish();
      } catch (error) {
        finish(error);
      }
    };
    const onFailure = () => finish(readingError(400, 'request.aborted', 'request aborted'));
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('aborted', onFailure);
  };
}

/** body-parser's strict JSON: an object or an array (a leading BOM dropped); else its parse error. */
function parseStrictJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(body)?.[1];
  try {
    if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token ${first ?? 'end'} in JSON: only an object or an array is accepted`);
    return JSON.parse(body);
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, statusCode: 400, type: 'entity.parse.failed', expose: true });
  }
}

function readingError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true });
}
