import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AnswerStream } from './answerStream.js';
import { sendRpcError } from './rpcErrors.js';
import {
  METHOD_NOT_ALLOWED, SESSION_NOT_FOUND, checkGetHeaders, checkPost, checkRequestIds, checkSession, isInitialize, isRequest, isResponse, type TransportRefusal,
} from './streamableChecks.js';

export { HEADERS_HOLD_MS } from './answerStream.js';

export interface NodeStreamableTransportOptions {
  /** The session id to give the client at initialize. */
  sessionIdGenerator: () => string;
  /** Told the session id once initialize is accepted, before its answer. */
  onsessioninitialized?: (sessionId: string) => void | Promise<void>;
}

/** A POST's answer and the requests it still owes a response. */
interface PostAnswer {
  stream: AnswerStream;
  pending: Set<RequestId>;
}

/** The JSON-RPC code of the answer a request still open gets when its session closes under it (the SDK's "connection closed"). */
const SESSION_CLOSED = -32000;

/** A second initialize in a session: the SDK's words, and what to do instead. */
const ALREADY_INITIALIZED: TransportRefusal = {
  status: 400,
  code: -32600,
  message: 'Invalid Request: Server already initialized; send requests with this Mcp-Session-Id, or initialize a new session without the header',
};

/**
 * The MCP streamable HTTP server transport on Node's request and response, with the protocol
 * behaviour of the SDK's WebStandardStreamableHTTPServerTransport (stateful sessions, no event
 * store) but none of its per-request web Request, Response and ReadableStream, and with JSON
 * answers for lone requests that need no stream (answerStream.ts).
 */
export class NodeStreamableTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private started = false;
  private closed = false;
  /**
   * Each request still running, by id, with the answer its response goes to: kept after its
   * client left (the answer ended) until it is answered or cancelled, so a later request cannot
   * take its id and receive its response.
   */
  private readonly answers = new Map<RequestId, PostAnswer>();
  private standalone: AnswerStream | undefined;

  constructor(private readonly options: NodeStreamableTransportOptions) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('Transport already started');
    this.started = true;
  }

  /** Answers one HTTP request; `body` is the POST's JSON already checked by the router (checkRpcBody). */
  async handleNodeRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.closed) return this.refuse(res, SESSION_NOT_FOUND);
    switch (req.method) {
      case 'POST':
        return this.handlePost(req, res, body as JSONRPCMessage | JSONRPCMessage[]);
      case 'GET':
        return this.handleGet(req, res);
      case 'DELETE':
        return this.handleDelete(req, res);
      default:
        return this.refuse(res, METHOD_NOT_ALLOWED);
    }
  }

  private async handlePost(req: IncomingMessage, res: ServerResponse, body: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const batch = Array.isArray(body);
    const messages = batch ? body : [body];
    const refusal = checkPost(req.headers, body, this.sessionId) ?? checkRequestIds(messages, (id) => this.answers.has(id));
    if (refusal) return this.refuse(res, refusal);
    const initializing = messages.some(isInitialize);
    if (initializing) {
      if (this.sessionId !== undefined) return this.refuse(res, ALREADY_INITIALIZED);
      this.sessionId = this.options.sessionIdGenerator();
      await this.options.onsessioninitialized?.(this.sessionId);
      // close() may have run during the callback: nothing may register into a closed transport.
      if (this.closed) return this.refuse(res, SESSION_NOT_FOUND);
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      // Only notifications or responses: accepted, nothing to answer.
      res.writeHead(202).end();
      for (const message of messages) this.onmessage?.(message, extra);
      this.dropCancelled(messages);
      return;
    }
    const pending = new Set(requests.map((r) => r.id));
    // The 406 check above means the client accepts application/json: a lone request may get JSON.
    // A client that leaves cancels nothing (the MCP rule for a disconnection): its requests stay in
    // `answers`, their ended stream writing nothing, until the responses come.
    const stream = new AnswerStream(res, { sessionId: this.sessionId, jsonAllowed: !batch }).holdHeaders();
    const answer: PostAnswer = { stream, pending };
    for (const id of pending) this.answers.set(id, answer);
    for (const message of messages) this.onmessage?.(message, extra);
    this.dropCancelled(messages);
  }

  private handleGet(req: IncomingMessage, res: ServerResponse): void {
    const refusal = checkGetHeaders(req.headers) ?? checkSession(req.headers, this.sessionId);
    if (refusal) return this.refuse(res, refusal);
    if (this.standalone) return this.refuse(res, { status: 409, code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' });
    const stream: AnswerStream = new AnswerStream(res, {
      sessionId: this.sessionId,
      jsonAllowed: false,
      // Forget the stream the client left, unless a newer one replaced it already.
      onClientGone: () => {
        if (this.standalone === stream) this.standalone = undefined;
      },
    });
    this.standalone = stream.open();
  }

  private async handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = checkSession(req.headers, this.sessionId);
    if (refusal) return this.refuse(res, refusal);
    res.writeHead(200).end();
    await this.close('The session was closed (DELETE) while this request ran; it was cancelled.');
  }

  /**
   * Ends the session. With a `reason`, every request still open is answered with it as an error,
   * rather than its stream ending with no answer at all.
   */
  async close(reason?: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, { stream }] of this.answers) {
      if (reason !== undefined) stream.write({ jsonrpc: '2.0', id, error: { code: SESSION_CLOSED, message: reason } }, false);
    }
    for (const { stream } of new Set(this.answers.values())) stream.end();
    this.answers.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  /**
   * Routes a message: a response to the answer of its request, which ends once all its requests
   * are answered; a message related to a request (progress, elicitation, sampling) to that
   * request's answer; anything else to the standalone GET stream, if one is open. A request that
   * no stream can carry is refused (see `toStandalone`).
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isResponse(message);
    const requestId = response ? message.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (response) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      return this.toStandalone(message);
    }
    const answer = this.answers.get(requestId);
    if (response && answer) {
      answer.pending.delete(requestId);
      this.answers.delete(requestId);
    }
    if (!answer || answer.stream.ended) {
      // A response is reported undeliverable, as the SDK's transport does; progress for a call whose
      // client left has nowhere to go; a request may still reach the client on its GET stream.
      if (response) throw new Error(`No connection established for request ID: ${String(requestId)}`);
      return isRequest(message) ? this.toStandalone(message) : undefined;
    }
    answer.stream.write(message, response && answer.pending.size === 0);
  }

  /**
   * Writes to the standalone GET stream. A notification without one is dropped (the GET stream is
   * optional), but a request is refused at once: its sender (an upstream server asking through a
   * Session's connection) would otherwise wait out its whole timeout for an answer that never comes.
   */
  private toStandalone(message: JSONRPCMessage): void {
    if (this.standalone && !this.standalone.ended) return this.standalone.write(message, false);
    if (!isRequest(message)) return;
    throw new Error(
      `The client has no open stream to receive this ${message.method.slice(0, 60)} request: it relates to no request still open and the session has no GET stream; ` +
        'the client can open a GET stream on the MCP endpoint to receive requests sent outside its calls.',
    );
  }

  /**
   * A request the client cancelled is never answered (the Protocol drops its response), so its
   * answer stops waiting for it and ends once nothing else on it is pending; it stayed open,
   * sending keep-alives, until the client gave up.
   */
  private dropCancelled(messages: readonly JSONRPCMessage[]): void {
    for (const message of messages) {
      if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) continue;
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const answer = requestId === undefined ? undefined : this.answers.get(requestId);
      if (!answer) continue;
      answer.pending.delete(requestId!);
      this.answers.delete(requestId!);
      if (answer.pending.size === 0) answer.stream.end();
    }
  }

  private refuse(res: ServerResponse, refusal: TransportRefusal): void {
    this.onerror?.(new Error(refusal.message));
    sendRefusal(res, refusal);
  }
}

/** Answers a refused request with the refusal's status, headers and JSON-RPC error. */
export function sendRefusal(res: ServerResponse, refusal: TransportRefusal): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  sendRpcError(res, { ...refusal, id: null });
}
