import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { dropUnderBackpressure, serializeForWire } from '../front/index.js';

/**
 * How long an answer may hold its headers back waiting for its first message. Most answers are
 * ready well within it, and then headers and body leave in one socket write; a call that waits
 * longer (a human deciding) gets its SSE headers at once, so no client times out on them.
 */
export const HEADERS_HOLD_MS = 100;

/** Interval of the SSE comment that keeps an open stream alive through idle timeouts (the SDK's default). */
export const KEEP_ALIVE_MS = 15_000;

export interface AnswerStreamOptions {
  /** The session id every answer names (absent before initialize). */
  sessionId: string | undefined;
  /** True when a lone request's response may be the whole answer as `application/json`. */
  jsonAllowed: boolean;
  /** Told once when the client goes away before the answer ended. */
  onClientGone?: () => void;
}

/**
 * One HTTP answer of the streamable HTTP transport: a POST's answer to its requests, or the GET's
 * standalone stream. Its headers wait for the first message (up to HEADERS_HOLD_MS): when that is
 * the response of a lone request the answer is that response as JSON, in one write, which spares
 * the client an SSE parse; anything else (progress, an elicitation, a batch, nothing in time)
 * makes it an SSE stream, as the specification allows either.
 */
export class AnswerStream {
  private mode: 'held' | 'sse' | 'ended' = 'held';
  private hold: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: AnswerStreamOptions,
  ) {
    res.once('close', this.closed);
  }

  /** Starts the headers hold (a POST); a GET's stream opens at once. */
  holdHeaders(): this {
    this.hold = setTimeout(this.openSse, HEADERS_HOLD_MS);
    return this;
  }

  /** True once the answer ended or its client went away: nothing more can be written. */
  get ended(): boolean {
    return this.mode === 'ended';
  }

  /** Writes one message; `last` ends the answer with it (the final response of its requests). */
  write(message: JSONRPCMessage, last: boolean): void {
    if (this.mode === 'ended' || dropUnderBackpressure(message, this.res.writableLength)) return;
    const text = serializeForWire(message);
    if (text === undefined) return;
    if (this.mode === 'held' && last && this.options.jsonAllowed) return this.endJson(text);
    const event = `event: message\ndata: ${text}\n\n`;
    if (this.mode === 'held') this.openSse(false);
    if (last) return this.end(event);
    this.res.write(event);
  }

  /** Ends the answer (an SSE answer still held gets its headers and an empty body). */
  end(lastChunk?: string): void {
    if (this.mode === 'ended') return;
    if (this.mode === 'held') this.openSse(false);
    this.finish();
    this.res.end(lastChunk);
  }

  private endJson(body: string): void {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
    if (this.options.sessionId !== undefined) headers['mcp-session-id'] = this.options.sessionId;
    this.finish();
    this.res.writeHead(200, headers).end(body);
  }

  /** Turns the answer into an SSE stream; `flush` sends the headers alone now (nothing to send with them). */
  private readonly openSse = (flush = true): void => {
    if (this.mode !== 'held') return;
    clearTimeout(this.hold);
    this.mode = 'sse';
    const headers: Record<string, string> = {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    };
    if (this.options.sessionId !== undefined) headers['mcp-session-id'] = this.options.sessionId;
    this.res.writeHead(200, headers);
    if (flush) this.res.flushHeaders();
    // A stream that stays open past its first write is the one an idle timeout could cut.
    this.keepAlive = setInterval(() => this.res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  };

  /** The GET's stream: its headers at once. */
  open(): this {
    this.openSse(true);
    return this;
  }

  private finish(): void {
    this.mode = 'ended';
    clearTimeout(this.hold);
    clearInterval(this.keepAlive);
  }

  private readonly closed = (): void => {
    if (this.mode === 'ended') return;
    // Closed before its end: the client went away.
    this.finish();
    this.options.onClientGone?.();
  };
}
