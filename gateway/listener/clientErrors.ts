import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError } from '../core/index.js';
import { httpErrorBody } from './httpErrors.js';

/**
 * Answers what Node's HTTP parser refuses before any route sees it (a URL or headers over its 16
 * KiB, a request that is not HTTP/1.1) in the one JSON error shape; Node's own answer is a bare
 * status line with an empty body.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const refusal = tooLarge
      ? new GatewayError('request_too_large', 'The URL and headers are larger than 16 KiB; send a shorter URL (move data into a JSON body) or fewer headers.')
      : new GatewayError('invalid_input', 'The request is not valid HTTP/1.1; check the request line and headers.');
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(httpErrorBody(refusal));
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
