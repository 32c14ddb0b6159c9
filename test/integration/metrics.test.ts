import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gatewayWith(env: Record<string, string> = {}): Promise<TestGateway> {
  const gateway = await startTestGateway(env);
  cleanups.push(() => gateway.dispose());
  return gateway;
}

async function scrape(gateway: TestGateway): Promise<string> {
  const response = await request(gateway.url).get('/metrics').set('authorization', `Bearer ${gateway.token}`).expect(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text;
}

/** The value of one sample line (`name{labels} value`), or undefined when there is none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers 401 with the JSON error shape without the admin token, and with a wrong one', async () => {
    const gateway = await gatewayWith();
    const missing = await request(gateway.url).get('/metrics').expect(401);
    expect(missing.body.error).toMatchObject({ code: 'unauthorized' });
    expect(missing.text).not.toContain('scigate_');
    const wrong = await request(gateway.url).get('/metrics').set('authorization', 'Bearer not-the-token').expect(401);
    expect(wrong.body.error).toMatchObject({ code: 'unauthorized' });
  });

  it('counts a tool call and a cache hit by source, tool and outcome; sessions_open follows the clients', async () => {
    const provider = await startReplayServer(arxivReplay);
    cleanups.push(() => provider.close());
    const gateway = await gatewayWith({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api` });
    expect(sample(await scrape(gateway), 'scigate_sessions_open')).toBe(0);
    const client = await gateway.connect();
    const args = { name: 'mcp__arxiv__get', arguments: { ids: ['1605.08386'] } };
    await client.callTool(args);
    await client.callTool(args);
    await client.callTool({ name: 'mcp__arxiv__no_such_tool', arguments: {} });
    expect(provider.requests).toHaveLength(1);
    const text = await scrape(gateway);
    expect(sample(text, 'scigate_tool_calls_total{sourceId="arxiv",tool="get",outcome="ok"}')).toBe(2);
    // The name an agent made up never becomes a label value.
    expect(text).not.toContain('no_such_tool');
    expect(sample(text, 'scigate_tool_calls_total{sourceId="none",tool="unresolved",outcome="tool_unavailable"}')).toBe(1);
    expect(sample(text, 'scigate_cache_hits_total{sourceId="arxiv"}')).toBe(1);
    expect(sample(text, 'scigate_cache_misses_total{sourceId="arxiv"}')).toBe(1);
    expect(sample(text, 'scigate_queue_wait_seconds_count{sourceId="arxiv"}')).toBe(1);
    expect(sample(text, 'scigate_queue_calls{limiter="arxiv",state="running"}')).toBe(0);
    expect(sample(text, 'scigate_sessions_open')).toBe(1);
    expect(sample(text, 'scigate_approvals_pending')).toBe(0);
    // Every audit row and session write went through the journal.
    expect(sample(text, 'scigate_journal_fsync_seconds_count')).toBeGreaterThan(0);
    expect(text).not.toContain(gateway.token);
    await client.close();
  });
});
