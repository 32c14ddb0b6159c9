import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startFileServer, type FileServer } from '../fixtures/fileServer.js';
import { startGateway, type GatewayProcess } from './gatewayProcess.js';

/**
 * A real `scigate serve` whose arXiv source replays captured answers and whose arXiv downloads come
 * from a loopback file server, with one agent in always_allow that has searched: the search's
 * invocation and first candidate are ready to download. `restart` starts the gateway again on the
 * same data directory (after a kill -9).
 */
export interface DownloadingGateway {
  gateway: GatewayProcess;
  files: FileServer;
  dataDir: string;
  client: Client;
  session: { id: string };
  invocationId: string;
  candidate: { id: string; url: string; filename: string };
  restart(): Promise<GatewayProcess>;
  dispose(): Promise<void>;
}

export async function startDownloadingGateway(agent: string): Promise<DownloadingGateway> {
  const provider: ReplayServer = await startReplayServer(arxivReplay);
  const files = await startFileServer();
  const root = await mkdtemp(join(tmpdir(), 'scigate-dl-'));
  const dataDir = join(root, 'data');
  const env = {
    SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`,
    SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}',
    SCIGATE_DOWNLOAD_MIRRORS: JSON.stringify({ 'https://arxiv.org': files.origin }),
  };
  const running = { gateway: await startGateway(dataDir, env) };
  const client = await running.gateway.connect(agent);
  const session = await vi.waitFor(async () => {
    const { body } = await running.gateway.api.get('/api/sessions');
    const found = body.sessions.find((s: { clientName: string }) => s.clientName === agent);
    if (!found) throw new Error('no session yet');
    return found as { id: string };
  }, { timeout: 60_000, interval: 50 });
  await running.gateway.api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
  const search = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as { structuredContent: any };
  return {
    get gateway() {
      return running.gateway;
    },
    files, dataDir, client, session,
    invocationId: search.structuredContent.invocationId,
    candidate: search.structuredContent.artifacts[0],
    restart: async () => (running.gateway = await startGateway(dataDir, env)),
    dispose: async () => {
      await running.gateway.kill9();
      await files.close();
      await provider.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
