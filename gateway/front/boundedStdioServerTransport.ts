import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Writable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { BoundedLineReader, type Logger } from '../core/index.js';
import type { EarlyHandshake } from '../handshake/index.js';
import { checkRpcMessage, reusedIdMessage, type RpcRejection } from './checkRpcMessage.js';
import { dropUnderBackpressure, serializeForWire } from './wireMessage.js';

/** Longest request line `scigate stdio` reads (the SDK's own stdio limit). */
export const MAX_STDIO_REQUEST_BYTES = 10 * 1024 * 1024;

export interface BoundedStdioServerOptions {
  input: NodeJS.ReadableStream;
  output: Writable;
  log: Logger;
  maxLineBytes?: number;
  /** What was read (and maybe answered) before this transport existed: replayed on start. */
  early?: EarlyHandshake;
}

/**
 * The downstream MCP channel over stdin/stdout. The SDK's StdioServerTransport closes on a line
 * over 10 MiB, which ended `scigate stdio` with exit code 0 and no word. A client expects the
 * session to survive one bad request, as JSON-RPC provides: the line is skipped, answered with a
 * JSON-RPC error (id null, since its id was never read) and named on stderr; reading goes on.
 * Unparseable lines are answered `-32700` the same way; a message with bad params, with its id.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly reader: BoundedLineReader;
  private readonly onData = (chunk: Buffer | string) => this.read(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onOutputError = (error: NodeJS.ErrnoException) => this.outputLost(error.code);
  /** Set once a write failed. process.stdout is never `destroyed` (Node undoes it), so this says it. */
  private outputFailed = false;
  private closed = false;
  /** The `initialize` answered before the SDK loaded: the SDK server's answer to it is not sent again. */
  private answeredEarly: EarlyHandshake['answered'];
  /** The ids of the client's requests not yet answered (nor cancelled): a request may not reuse one. */
  private readonly running = new Set<string | number>();
  /** The `drain` every answer written past the output's buffer waits for (one listener, shared). */
  private nextDrain: Promise<void> | undefined;

  constructor(private readonly options: BoundedStdioServerOptions) {
    this.reader = new BoundedLineReader(options.maxLineBytes ?? MAX_STDIO_REQUEST_BYTES);
    this.answeredEarly = options.early?.answered;
  }

  async start(): Promise<void> {
    this.options.input.on('data', this.onData);
    this.options.input.on('error', this.onStreamError);
    this.options.output.on('error', this.onOutputError);
    const early = this.options.early;
    if (!early) return;
    // The early initialize answer's write may have failed already.
    if (early.outputFailed?.()) return this.outputLost(undefined);
    for (const chunk of early.chunks) this.read(chunk);
    // The early reader paused the input after the first line.
    this.options.input.resume();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // A response (or error) answers the request of its id: that id is free again.
    if (!('method' in message) && message.id !== undefined) this.running.delete(message.id);
    if (this.outputFailed) return Promise.resolve();
    if (this.answeredEarly && 'id' in message && message.id === this.answeredEarly.id && !('method' in message)) {
      this.dropRepeatedInitialize(message);
      return Promise.resolve();
    }
    const text = dropUnderBackpressure(message, this.options.output.writableLength) ? undefined : serializeForWire(message);
    if (text === undefined) return Promise.resolve();
    if (this.options.output.write(`${text}\n`)) return Promise.resolve();
    return this.drained();
  }

  /**
   * Resolves at the output's next `drain`. Every answer queued behind a slow reader shares one
   * listener: one each would grow with the queue and trip Node's listener-leak warning on stderr.
   */
  private drained(): Promise<void> {
    this.nextDrain ??= new Promise((resolve) => {
      this.options.output.once('drain', () => {
        this.nextDrain = undefined;
        resolve();
      });
    });
    return this.nextDrain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.input.off('data', this.onData);
    this.options.input.off('error', this.onStreamError);
    this.reader.clear();
    this.running.clear();
    this.onclose?.();
  }

  /**
   * A write to stdout failed (EPIPE: the client closed its end): nothing more reaches the client,
   * so the session ends as when stdin closes. Unheard, the error event crashed `scigate stdio`
   * with a stack trace, and the calls still running were found interrupted at the next start.
   */
  private outputLost(code: string | undefined): void {
    if (this.outputFailed) return;
    this.outputFailed = true;
    this.options.log.warn({ code }, 'the client closed its end of stdout; the session ends, as when stdin closes');
    void this.close();
  }

  private read(chunk: Buffer): void {
    this.reader.push(chunk, {
      line: (text) => {
        if (text.trim() === '') return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          this.refuse(ErrorCode.ParseError, 'Parse error: the line is not valid JSON; send one JSON-RPC message per line.');
          return;
        }
        if (Array.isArray(parsed)) {
          this.refuse(ErrorCode.InvalidRequest, 'Invalid request: a batch (JSON array) is not accepted on stdio; send one JSON-RPC message per line.');
          return;
        }
        // The envelope and a known request's params are checked here, so a refusal carries the
        // request's id and says what is wrong in words (the SDK's line parser did neither).
        const rejection = checkRpcMessage(parsed) ?? this.checkId(parsed as JSONRPCMessage);
        if (rejection) return this.refuse(rejection.code, rejection.message, rejection.id);
        try {
          this.onmessage?.(parsed as JSONRPCMessage);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      overflow: (bytes) => {
        const limit = this.options.maxLineBytes ?? MAX_STDIO_REQUEST_BYTES;
        this.refuse(ErrorCode.InvalidRequest, `Request too large: a line of more than ${limit} bytes (${bytes} read) was skipped; send smaller arguments.`);
      },
    });
  }

  /**
   * Refuses a request whose id is that of one still running (the client could not tell their
   * answers apart, and cancelling it would reach only one), else records it as running. A
   * cancelled request is never answered: its id is free at once.
   */
  private checkId(message: JSONRPCMessage): RpcRejection | undefined {
    if (!('method' in message)) return undefined;
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled') this.running.delete((message.params as { requestId?: string | number } | undefined)?.requestId as string | number);
      return undefined;
    }
    if (this.running.has(message.id)) return { code: ErrorCode.InvalidRequest, message: reusedIdMessage(message.id, 'running'), id: message.id };
    this.running.add(message.id);
    return undefined;
  }

  /** The client already has its answer; one that differs means the early answer is out of date with the SDK. */
  private dropRepeatedInitialize(message: JSONRPCMessage): void {
    const sent = this.answeredEarly!.result;
    this.answeredEarly = undefined;
    const own = (message as { result?: unknown }).result;
    if (isDeepStrictEqual(own, sent)) return;
    this.options.log.warn(
      { answeredEarly: sent, sdkAnswer: own ?? (message as { error?: unknown }).error },
      'the initialize answer given before the SDK loaded differs from the SDK server\'s; update gateway/handshake/sessionIdentity.ts',
    );
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    this.options.log.warn({ code }, message);
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch(() => {});
  }
}
