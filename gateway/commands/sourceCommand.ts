/** `scigate source <id>`: one built-in source as a stdio MCP server (the child of `--isolate-sources`). */
import { builtinSources, findBuiltinSource } from '../../sources/index.js';
import { UsageError, type FlagValues } from '../config/index.js';
import { SecretScrubber, createRequestPacers, systemClock } from '../core/index.js';
import { BoundedStdioServerTransport } from '../front/index.js';
import { checkProviderUrls, sourceDepsFromEnv } from '../sourceSettings/index.js';
import { createLogger } from './logger.js';
import { openSharedLiveState } from './redisWiring.js';
import { stopSignal } from './stopSignal.js';
import { VERSION } from './version.js';

type Env = Record<string, string | undefined>;

/** Serves the source on stdin/stdout until the parent closes the stream; resolves with the exit code. */
export async function runSource(sourceId: string, flags: FlagValues, env: Env): Promise<number> {
  const log = createLogger(String(flags.logLevel ?? 'info'));
  const source = findBuiltinSource(sourceId);
  if (!source) throw new UsageError(`Unknown source "${sourceId}"; the built-in sources are ${builtinSources.map((s) => s.manifest.id).join(', ')}.`);
  checkProviderUrls(env);
  // A child of `--isolate-sources --redis` paces its provider requests with every other process (SCIGATE_REDIS).
  const shared = typeof flags.redis === 'string' ? await openSharedLiveState(flags.redis, { secrets: new SecretScrubber(), log, clock: systemClock }) : undefined;
  const pacer = createRequestPacers(systemClock, shared?.pacers);
  const server = (await source.load()).createServer(sourceDepsFromEnv({ sourceId, env, version: VERSION, clock: systemClock, pacer }));
  // Bounded as `scigate stdio` is: an oversized or unparseable line is answered and skipped, not the end of the server.
  const transport = new BoundedStdioServerTransport({ input: process.stdin, output: process.stdout, log });
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  log.info({ sourceId }, 'source server running on stdio');
  await Promise.race([closed, stopSignal()]);
  await server.close();
  await shared?.close();
  return 0;
}
