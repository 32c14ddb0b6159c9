import type { Writable } from 'node:stream';
import type { Logger, NewId } from '../core/index.js';
import type { EarlyHandshake } from '../handshake/index.js';
import { BoundedStdioServerTransport } from './boundedStdioServerTransport.js';
import { endSession, persistSession, type SessionLifecycleDeps } from './sessionLifecycle.js';
import { connectSessionServer, createSessionServer, type SessionHandlersFactory } from './sessionServer.js';

/** What the stdio session needs from the runtime once it is built. */
export interface StdioRuntime extends SessionLifecycleDeps {
  /** The handlers of the session with this id. */
  handlersFor(sessionId: string): SessionHandlersFactory;
}

export interface StdioFrontOptions {
  version: string;
  projectId: string;
  newId: NewId;
  /** Logs bad request lines; usable before the runtime is built. */
  log: Logger;
  /**
   * Builds the runtime (called once, after the client's first bytes have been answered);
   * tools/list, tools/call and the Session's persistence wait for it.
   */
  runtime: () => Promise<StdioRuntime>;
  input?: NodeJS.ReadableStream;
  output?: Writable;
  /** What was read from `input` (and the `initialize` answered) before the SDK was loaded; replayed first. */
  early?: EarlyHandshake;
}

/**
 * Serves one MCP session over stdin/stdout, connected before the runtime is built so `initialize`
 * is answered at once. Resolves when the client closes the stream; rejects then with the runtime's
 * error if it could not be built (every request in between was answered with that cause).
 */
export async function serveStdio(options: StdioFrontOptions): Promise<void> {
  const id = options.newId('ses');
  const start = { id, projectId: options.projectId, transport: 'stdio' as const };
  const input = options.input ?? process.stdin;
  const early = options.early;
  const { built: runtime, started } = afterFirstInput(input, options.runtime, early !== undefined && early.chunks.length > 0);
  const server = createSessionServer({
    version: options.version,
    handlers: runtime.then((built) => built.handlersFor(id)),
    onInitialized: async (s) => persistSession(s, start, await runtime),
  });
  const transport = new BoundedStdioServerTransport({ input, output: options.output ?? process.stdout, log: options.log, ...(early ? { early } : {}) });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // An input that ended while it was read early emits no second 'end' (what it sent is replayed by connect).
    if (early?.ended) resolve();
    else input.once('end', () => resolve());
  });
  await connectSessionServer(server, transport);
  await closed;
  // A client that closed before sending anything had no Session, and no runtime was started.
  if (started()) await endSession(id, await runtime);
  await server.close().catch(() => {});
}

/**
 * Starts `build` once the client's first bytes have been handled. Importing and evaluating the
 * runtime blocks the event loop for a while; started earlier, it would hold back the `initialize`
 * answer. Every request is input, so nothing can wait for a runtime that never starts.
 */
function afterFirstInput<T>(input: NodeJS.ReadableStream, build: () => Promise<T>, alreadyRead: boolean): { built: Promise<T>; started: () => boolean } {
  let started = false;
  const built = new Promise<T>((resolve) => {
    const start = () => {
      started = true;
      setImmediate(() => resolve(build()));
    };
    // Input read before the SDK loaded was answered (or is replayed) already: no later byte need come.
    if (alreadyRead) start();
    else input.once('data', start);
  });
  // A failure is reported by each request that waits for it, and by serveStdio's own result.
  built.catch(() => {});
  return { built, started: () => started };
}
