import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LazySource, SourceDeps } from '../../sources/index.js';
import type { Logger } from '../core/index.js';
import type { InProcessServer } from '../upstream/index.js';

/**
 * An in-process server for a built-in source whose code is imported on first connect, so start-up
 * and tests that never call a source do not pay for its parsers. A source whose code fails to load
 * closes the transport: discovery then fails for that source alone and hides its tools.
 */
export function lazySourceServer(source: LazySource, deps: () => SourceDeps, log: Logger): InProcessServer {
  let server: InProcessServer | undefined;
  let closed = false;
  return {
    async connect(transport: Transport) {
      try {
        const loaded = await source.load();
        // Closed while its code was loading: starting it now would leak a server nobody closes.
        if (closed) return await transport.close();
        server = loaded.createServer(deps());
        await server.connect(transport);
      } catch (error) {
        log.warn({ sourceId: source.manifest.id, err: (error as Error).message }, 'built-in source failed to start');
        await transport.close().catch(() => {});
      }
    },
    async close() {
      closed = true;
      await server?.close();
    },
  };
}
