// Types of httpResponseReader.mjs (plain JavaScript so the download worker can load it), for its tests.
import type { IncomingHttpHeaders } from 'node:http';

export const MAX_HEAD_BYTES: number;

export class HttpResponseError extends Error {}

export interface ResponseHead {
  status: number;
  headers: IncomingHttpHeaders;
}

export class HttpResponseReader {
  constructor(handlers: { onHead(head: ResponseHead): void; onBody(buffer: Buffer, start: number, end: number): void; onComplete(): void });
  feed(buffer: Buffer, start: number, end: number): void;
  endOfStream(): boolean;
}

export function parseHead(text: string): ResponseHead;
