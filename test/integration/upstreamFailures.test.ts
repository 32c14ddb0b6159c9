import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { isAlive, waitUntil } from '../fixtures/cliProcess.js';
import { useRestartableGateways } from '../fixtures/restartableGateways.js';

const hostile = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));
const { freshDir, start } = useRestartableGateways('scigate-gateway-');

/** Polls the server's status until `done` holds (bounded: 60 s). */
async function statusUntil(api: AdminApi, id: string, done: (server: any) => boolean): Promise<any> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { body } = await api.get(`/api/mcp/servers/${id}`);
    if (done(body.server)) return body.server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${id} never reached the expected status`);
}

const startsIn = async (path: string) => (await readFile(path, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('a flooding custom server', () => {
  it('is retried with backoff, then disabled after 5 failures in a row with the reason in its status; the gateway stays up and a restart leaves it off', async () => {
    const dir = await freshDir();
    const startLog = join(dir, 'starts.log');
    const first = await start();
    const created = await first.api.post('/api/mcp/servers', {
      name: 'Flood', transport: 'stdio', command: process.execPath, args: [hostile, '--flood-at-start'], enabled: true,
      env: [{ key: 'START_LOG', value: startLog }],
    });
    expect(created.status).toBe(201);
    const id = created.body.server.id;

    const disabled = await statusUntil(first.api, id, (s) => s.connection.state === 'disabled');
    expect(disabled.enabled).toBe(false);
    expect(disabled.connection.message).toMatch(/stopped after 5 failures in a row; the last: .*more than 11048576 bytes/);
    expect(await startsIn(startLog)).toBe(5);

    // The gateway kept serving throughout: agents and the admin API still answer.
    const agent = await first.gateway.connect();
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    expect((await first.api.get('/api/mcp/servers')).status).toBe(200);

    await first.gateway.dispose();
    const second = await start();
    const after = (await second.api.get(`/api/mcp/servers/${id}`)).body.server;
    expect(after).toMatchObject({ enabled: false, connection: { state: 'disabled' } });
    expect(await startsIn(startLog)).toBe(5);
  });
});

describe('a hung custom server', () => {
  it('is started again after three calls in a row time out, and the next call is answered by a new process', async () => {
    const { gateway, api } = await start();
    const created = await api.post('/api/mcp/servers', {
      name: 'Hangs', transport: 'stdio', command: process.execPath, args: [hostile], enabled: true, timeoutSeconds: 1,
    });
    expect(created.status).toBe(201);
    const toolNamed = (upstream: string) => created.body.server.tools.find((t: any) => t.upstreamName === upstream).name as string;
    const agent = await gateway.connect({ name: 'hung-server-agent' });
    await allowEverything(api, (await api.sessionOf('hung-server-agent')).id);
    const call = async (upstream: string) => (await agent.callTool({ name: toolNamed(upstream), arguments: {} })) as any;
    const pidOf = async () => Number((await call('pid')).content.at(-1).text);

    const pid = await pidOf();
    const hangs = [await call('hang'), await call('hang'), await call('hang')];
    expect(hangs.map((r) => r.structuredContent?.error?.code ?? r.content[0].text)).toEqual(Array(3).fill('upstream_timeout'));
    // Named as the admin named it, not only by its Source ID.
    expect(hangs[0].structuredContent.error.message).toMatch(/^"Hangs" \(custom-[0-9a-f]{12}\) did not answer within 1 s\.$/);
    const again = await pidOf();
    expect(again).not.toBe(pid);
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);
  });
});
