import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError } from '../core/index.js';
import { httpErrorBody } from './httpErrors.js';

/**
 * Answers what Node's HTTP server refuses before any route sees it (a URL or headers over its 16
 * KiB, a request that is not HTTP/1.1, one that did not arrive in full within its timeouts) in the
 * one JSON error shape; Node's own answer is a bare status line with an empty body.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { status, refusal } = refusalOf(error, server);
    const body = JSON.stringify(httpErrorBody(refusal));
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** The status and words of one refusal of Node's HTTP server. */
function refusalOf(error: NodeJS.ErrnoException, server: Server): { status: number; refusal: GatewayError } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, refusal: new GatewayError('request_too_large', 'The URL and headers are larger than 16 KiB; send a shorter URL (move data into a JSON body) or fewer headers.') };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // Node's headersTimeout or requestTimeout ran out: the request itself may be fine, only slow.
    const within = `headers within ${server.headersTimeout / 1000} s, the whole request within ${server.requestTimeout / 1000} s`;
    return { status: 408, refusal: new GatewayError('invalid_input', `The request did not arrive in full in time (${within}); send it again without pausing mid-request.`) };
  }
  return { status: 400, refusal: new GatewayError('invalid_input', 'The request is not valid HTTP/1.1; check the request line and headers.') };
}
