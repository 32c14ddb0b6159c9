import { initializeResult, type InitializeResult } from './sessionIdentity.js';

/** What `scigate stdio` read, and answered, before the session's SDK server existed. */
export interface EarlyHandshake {
  /** Every chunk read so far, in order, the `initialize` line included: the session's transport replays them. */
  chunks: Buffer[];
  /** The `initialize` request answered here, and the answer given (the SDK server's own answer to it is dropped). */
  answered?: { id: string | number; result: InitializeResult };
  /** The input ended (or failed) while the first line was read. */
  ended: boolean;
}

export interface EarlyInitializeOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** serverInfo.version */
  version: string;
}

/** How far to look for the first line: an `initialize` request is small, and a longer line is the transport's to judge. */
const FIRST_LINE_LIMIT = 64 * 1024;

/**
 * Answers the client's first line when it is a well-formed `initialize` request, with nothing but
 * Node loaded: importing the MCP SDK (zod, ajv and their schemas) takes longer than the rest of the
 * start-up together, and a client may give up on a server that is slow to initialize. The input is
 * paused after the first line; the session's transport replays what was read and resumes it, so
 * the SDK server sees every message, `initialize` included, in order. Anything else (a bad line, a
 * first request that is not `initialize`) is left unanswered here, for the SDK server to answer.
 */
export function answerInitializeEarly(options: EarlyInitializeOptions): Promise<EarlyHandshake> {
  const { input, output } = options;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (ended: boolean) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      if (!ended) input.pause();
      const request = initializeRequest(firstLine(chunks));
      if (!request) return resolve({ chunks, ended });
      const result = initializeResult(request.protocolVersion, options.version);
      // The SDK's own shape and key order, so a client sees the same bytes either way.
      output.write(`${JSON.stringify({ result, jsonrpc: '2.0', id: request.id })}\n`);
      resolve({ chunks, ended, answered: { id: request.id, result } });
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (bytes.includes(0x0a) || size >= FIRST_LINE_LIMIT) finish(false);
    };
    const onEnd = () => finish(true);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onEnd);
  });
}

function firstLine(chunks: Buffer[]): string | undefined {
  const all = Buffer.concat(chunks);
  const end = all.indexOf(0x0a);
  return end < 0 || end > FIRST_LINE_LIMIT ? undefined : all.subarray(0, end).toString('utf8');
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id and requested revision of an `initialize` request the SDK would accept; undefined for anything else. */
function initializeRequest(line: string | undefined): { id: string | number; protocolVersion: string } | undefined {
  if (line === undefined) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities)) return undefined;
  const client = params.clientInfo;
  if (!isObject(client) || typeof client.name !== 'string' || typeof client.version !== 'string') return undefined;
  return { id: id as string | number, protocolVersion: params.protocolVersion };
}
