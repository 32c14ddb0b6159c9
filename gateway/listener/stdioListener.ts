import type { Clock } from '../core/index.js';
import { BoundedStdioServerTransport } from './boundedStdioServerTransport.js';
import { createDownstreamServer, type DownstreamDeps } from './downstreamServer.js';
import { endSession, persistSessionOnInitialize } from './sessionLifecycle.js';

/** Serves one MCP session over stdin/stdout; resolves when the client closes the stream. */
export async function serveStdio(deps: DownstreamDeps & { clock: Clock; projectId: string }): Promise<void> {
  const id = deps.newId('ses');
  const server = createDownstreamServer(deps, id);
  persistSessionOnInitialize(server, { id, projectId: deps.projectId, transport: 'stdio' }, deps);
  const transport = new BoundedStdioServerTransport({ input: process.stdin, output: process.stdout, log: deps.log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await endSession(id, deps);
  await server.close().catch(() => {});
}
