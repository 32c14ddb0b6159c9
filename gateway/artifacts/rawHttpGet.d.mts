// Types of rawHttpGet.mjs (plain JavaScript so the download worker can load it), for its tests.
import type { ResponseHead } from './httpResponseReader.mjs';

export interface RawRequest {
  stream(consumer: { onBody(buffer: Buffer, start: number, end: number): void; onEnd(outcome: 'complete' | 'dropped' | 'aborted', message?: string): void }): void;
  destroy(message?: string): void;
}

export function rawGet(url: string, headers: Record<string, string>, handlers: { onHead(head: ResponseHead): void; onFailed(message: string): void }, options?: { ca?: string | Buffer }): RawRequest;
