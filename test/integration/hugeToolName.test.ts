import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const log = captureLogger();
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({}, undefined, { log });
});
afterAll(async () => {
  await gateway?.dispose();
});

describe('a tools/call naming a tool with a huge name', () => {
  it('is refused, and neither its audit row, its answer nor the log carries more than a bounded part of the name', async () => {
    const client = await gateway.connect({ name: 'huge-name' });
    const name = `x${'y'.repeat(2_000_000)}`;
    const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ error: { code: 'tool_unavailable' } });
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    const api = adminApi(gateway);
    const session = await api.sessionOf('huge-name');
    const rows = (await api.get(`/api/sessions/${session.id}/invocations`)).body.invocations;
    expect(rows.map((r: { toolName: string }) => r.toolName.length)).toEqual([200]);
    const longest = Math.max(...log.lines.map((line) => line.length));
    expect(longest).toBeLessThan(10_000);
  });
});
