/**
 * `scigate stdio`: one MCP session on stdin/stdout. The client's `initialize` is answered with
 * nothing but Node loaded (gateway/handshake); then the SDK server and the session front are
 * imported and take over the stream, and storage, the runtime, the sources and pino are imported
 * and built behind them (see stdioRuntime.ts): tools/list and tools/call wait for those.
 */
import { UsageError, type FlagValues } from '../config/index.js';
import type { Logger } from '../core/index.js';
import { answerInitializeEarly } from '../handshake/index.js';
import type { StdioGateway } from './stdioRuntime.js';
import { stopSignal } from './stopSignal.js';
import { VERSION } from './version.js';

type Env = Record<string, string | undefined>;

/**
 * Serves the session until the client closes stdin or a signal; resolves with the exit code: 1 if
 * the runtime failed, 2 if it failed on a flag (a busy --admin-port), as `scigate serve` says.
 */
export async function runStdio(flags: FlagValues, env: Env): Promise<number> {
  const stopped = stopSignal();
  const early = await Promise.race([answerInitializeEarly({ input: process.stdin, output: process.stdout, version: VERSION }), stopped]);
  // A client that closed before sending anything had no Session: nothing more to load.
  if (!early || (early.ended && early.chunks.length === 0)) return 0;
  const [{ serveStdio }, { deferredLogger, randomId }] = await Promise.all([import('../front/index.js'), import('../core/index.js')]);
  let gateway: Promise<StdioGateway> | undefined;
  let adoptLog!: (log: Promise<Logger>) => void;
  const logReady = new Promise<Logger>((resolve) => (adoptLog = resolve));
  const startGateway = (): Promise<StdioGateway> => {
    if (gateway) return gateway;
    gateway = import('./stdioRuntime.js').then((m) => m.startStdioGateway(flags, env));
    adoptLog(gateway.then((g) => g.log));
    // Said at once on stderr; each request after this is answered with the same cause.
    gateway.catch((error: unknown) => process.stderr.write(`scigate: could not start: ${(error as Error).message}\n`));
    return gateway;
  };
  const served = serveStdio({
    version: VERSION,
    projectId: String(flags.project),
    newId: randomId,
    log: deferredLogger(logReady, process.stderr),
    runtime: () => startGateway().then((g) => g.runtime),
    early,
  });
  try {
    await Promise.race([served, stopped]);
  } catch (error) {
    return exitCodeOf(error);
  }
  if (!gateway) return 0;
  const started = await gateway.catch(exitCodeOf);
  if (typeof started === 'number') return started;
  await started.close();
  return 0;
}

function exitCodeOf(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}
