import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { startTestGateway } from '../fixtures/testGateway.js';
import type { AdminApi } from '../fixtures/custom/adminApi.js';
import { useRestartableGateways } from '../fixtures/restartableGateways.js';

const definitionServer = fileURLToPath(new URL('../fixtures/servers/definitionServer.mjs', import.meta.url));
const { freshDir, start } = useRestartableGateways('scigate-gateway-');

/** Discovery after a restart runs in the background; poll the server's state (bounded). */
async function discovered(api: AdminApi, id: string): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await api.get(`/api/mcp/servers/${id}`);
    if (body.server.connection.state !== 'untested') return body.server;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${id} was not rediscovered`);
}

describe('restart recovery', () => {
  it('config, ids, secrets and selections survive a restart; tools are rediscovered, accepted definitions stay pinned', async () => {
    const dir = await freshDir();
    const first = await start();
    const descriptionFile = join(dir, 'greet.txt');
    await writeFile(descriptionFile, 'Greets before the restart');
    const pinned = (await first.api.post('/api/mcp/servers', { name: 'Pinned', transport: 'stdio', command: process.execPath, args: [definitionServer, descriptionFile], enabled: true })).body.server;
    const everything = (await first.api.post('/api/mcp/servers', { name: 'Everything', ...everythingStdio(), enabled: true, timeoutSeconds: 90, env: [{ key: 'API_KEY', value: 'kept-secret' }] })).body.server;
    const remote = (await first.api.post('/api/mcp/servers', { name: 'Remote', transport: 'sse', url: 'http://127.0.0.1:9/sse' })).body.server;
    await first.api.patch('/api/settings', { connectors: [everything.id, pinned.id] });
    await first.api.post('/api/projects', { id: 'lab', connectors: [everything.id] });
    const before = (await first.api.get('/api/mcp/servers')).body.servers.map((s: any) => [s.id, s.name, s.transport, s.enabled, s.timeoutSeconds]);
    await first.gateway.dispose();
    await writeFile(descriptionFile, 'Greets after the restart, differently');

    const second = await start();
    expect((await second.api.get('/api/mcp/servers')).body.servers.map((s: any) => [s.id, s.name, s.transport, s.enabled, s.timeoutSeconds])).toEqual(before);
    expect((await second.api.get('/api/settings')).body.settings.connectors).toEqual([everything.id, pinned.id]);
    expect((await second.api.get('/api/projects')).body.projects).toEqual([expect.objectContaining({ id: 'lab', connectors: [everything.id] })]);
    expect((await second.api.patch('/api/settings', { connectors: [everything.id, remote.id] })).status).toBe(200);

    const rediscovered = await discovered(second.api, everything.id);
    expect(rediscovered.connection.state).toBe('ready');
    expect(rediscovered.env).toEqual([{ key: 'API_KEY', value: null }]);
    expect(rediscovered.tools.map((t: any) => t.upstreamName)).toContain('echo');
    const agent = await second.gateway.connect({ project: 'lab' });
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toContain(rediscovered.tools.find((t: any) => t.upstreamName === 'echo').name);
    expect(names.some((n) => n.startsWith('mcp__pinned__') || n.includes(pinned.id))).toBe(false);

    const stillPinned = await discovered(second.api, pinned.id);
    expect(stillPinned.hidden).toEqual([{ name: 'greet', reason: expect.stringContaining('definition changed since it was accepted') }]);
    expect((await second.api.get(`/api/mcp/servers/${remote.id}`)).body.server.connection.state).toBe('disabled');
  });

  it('a wrong model-secrets.key stops start-up with a clear error instead of an empty configuration', async () => {
    const dir = await freshDir();
    const first = await start();
    await first.api.post('/api/mcp/servers', { name: 'Saved', transport: 'stdio', command: 'node' });
    await first.gateway.dispose();
    const original = await readFile(join(dir, 'model-secrets.key'));
    await writeFile(join(dir, 'model-secrets.key'), randomBytes(32));
    await expect(startTestGateway({}, dir)).rejects.toThrow(/Cannot decrypt .*custom-mcp-servers\.enc with .*model-secrets\.key/);
    await writeFile(join(dir, 'model-secrets.key'), original);
    const again = await start();
    expect((await again.api.get('/api/mcp/servers')).body.servers.map((s: any) => s.name)).toEqual(['Saved']);
  });
});
