import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, allowEverything } from '../fixtures/custom/adminApi.js';
import { startEverythingHttp, type RunningEverything } from '../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/**
 * A custom HTTP server (server-everything, from npm) that dies while it answers a call. The SDK's
 * HTTP transports report the broken stream but leave the request pending; without more, the agent
 * waited for the call's whole timeout and heard upstream_timeout.
 */
describe('an HTTP upstream that dies in the middle of an answer', () => {
  let gateway: TestGateway | undefined;
  let everything: RunningEverything | undefined;
  afterEach(async () => {
    await gateway?.dispose();
    await everything?.close();
  });

  it.each(['streamableHttp', 'sse'] as const)('over %s: the call fails at once as upstream_unavailable (retryable), not at its timeout', async (mode) => {
    everything = await startEverythingHttp(mode);
    gateway = await startTestGateway();
    const api = adminApi(gateway);
    const created = await api.post('/api/mcp/servers', { name: 'everything', transport: mode === 'sse' ? 'sse' : 'http', url: everything.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    const tool = await vi.waitFor(async () => {
      const listed = (await api.get('/api/mcp/servers')).body.servers[0];
      const found = listed.tools?.find((t: { upstreamName: string }) => t.upstreamName === 'trigger-long-running-operation');
      if (!found) throw new Error('server-everything is not discovered yet');
      return found.name as string;
    }, { timeout: 60_000, interval: 50 });
    const client = await gateway.connect({ name: 'abandoned' });
    await allowEverything(api, (await api.sessionOf('abandoned')).id);

    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    // 30 steps over 30 s: the server is answering (its first progress is out) when it dies.
    const call = client.callTool({ name: tool, arguments: { duration: 30, steps: 30 } }, undefined, {
      timeout: 120_000, onprogress: () => progressed(),
    }) as Promise<CallToolResult>;
    await firstProgress;
    await everything.close();
    everything = undefined;

    const result = await call;
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: unknown }).error).toMatchObject({ code: 'upstream_unavailable', retryable: true });
  }, 180_000);
});
