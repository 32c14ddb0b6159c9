import { initializeResult, type InitializeResult } from './sessionIdentity.js';

/** What `scigate stdio` read, and answered, before the session's SDK server existed. */
export interface EarlyHandshake {
  /** Every chunk read so far, in order, the `initialize` line included: the session's transport replays them. */
  chunks: Buffer[];
  /** The `initialize` request answered here, and the answer given (the SDK server's own answer to it is dropped). */
  answered?: { id: string | number; result: InitializeResult };
  /** The input ended (or failed) while the first line was read. */
  ended: boolean;
  /** True once writing the early answer failed (the client closed its end), which may be after this resolved. */
  outputFailed?: () => boolean;
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
      // A failed write (the client closed its end) must not crash the process before the session's
      // transport exists; the transport asks `outputFailed` and ends the session.
      let failed = false;
      output.once('error', () => (failed = true));
      // The SDK's own shape and key order, so a client sees the same bytes either way.
      output.write(`${JSON.stringify({ result, jsonrpc: '2.0', id: request.id })}\n`);
      resolve({ chunks, ended, answered: { id: request.id, result }, outputFailed: () => failed });
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

/** The keys of a JSON-RPC request: the SDK's request schema is strict, so any other key fails it. */
const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The id and requested revision of an `initialize` request the SDK would accept; undefined for
 * anything else. It vouches for less than the SDK's InitializeRequestSchema accepts, never more:
 * what it cannot vouch for goes to the SDK server, which answers (or refuses) it itself. An early
 * success for a request the SDK then refuses would stand: its refusal is dropped as the repeated
 * answer, and the session's server is never initialized.
 */
function initializeRequest(line: string | undefined): { id: string | number; protocolVersion: string } | undefined {
  if (line === undefined) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  if (Object.keys(message).some((key) => !ENVELOPE_KEYS.has(key))) return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  // `_meta` has a schema of its own; an initialize rarely carries one, so the SDK judges it.
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || Object.hasOwn(params, '_meta')) return undefined;
  if (!isPlainImplementation(params.clientInfo) || !isPlainCapabilities(params.capabilities)) return undefined;
  return { id: id as string | number, protocolVersion: params.protocolVersion };
}

/** An optional field: absent, or passing `check` (JSON has no undefined; null is not absent). */
const optional = (value: unknown, check: (v: unknown) => boolean): boolean => value === undefined || check(value);
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
/** The SDK's "object" assertion: anything non-null of type object (arrays included). */
const isNonNull = (value: unknown): boolean => typeof value === 'object' && value !== null;
const isRecordOfObjects = (value: unknown): boolean => isObject(value) && Object.values(value).every(isNonNull);

/** clientInfo with name, version and plain optional strings; icons (a schema of their own) go to the SDK. */
function isPlainImplementation(info: unknown): boolean {
  if (!isObject(info) || !isString(info.name) || !isString(info.version) || Object.hasOwn(info, 'icons')) return false;
  return ['title', 'websiteUrl', 'description'].every((key) => optional(info[key], isString));
}

/**
 * The shape of each capability the SDK's schema knows; `tasks`, nested deeper, goes to the SDK.
 * A capability it does not know the SDK drops, whatever its value, so any value passes here.
 */
const CAPABILITY_SHAPES = new Map<string, (value: unknown) => boolean>([
  ['experimental', isRecordOfObjects],
  ['extensions', isRecordOfObjects],
  ['sampling', (v) => isObject(v) && optional(v.context, isNonNull) && optional(v.tools, isNonNull)],
  ['roots', (v) => isObject(v) && optional(v.listChanged, isBoolean)],
  ['elicitation', (v) => isObject(v) && optional(v.form, (f) => isObject(f) && optional(f.applyDefaults, isBoolean)) && optional(v.url, isNonNull)],
  ['tasks', () => false],
]);

function isPlainCapabilities(capabilities: unknown): boolean {
  return isObject(capabilities) && Object.entries(capabilities).every(([key, value]) => CAPABILITY_SHAPES.get(key)?.(value) ?? true);
}
