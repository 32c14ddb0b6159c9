import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessGroupFiles } from '../../storage/index.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const notesServer = fileURLToPath(new URL('../fixtures/servers/notesServer.mjs', import.meta.url));
const LONG = { timeout: 60_000, interval: 50 };

const gateways: TestGateway[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const gateway of gateways) await gateway.dispose().catch(() => {});
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function gatewayInItsOwnDir(): Promise<TestGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-groups-'));
  dirs.push(dir);
  const gateway = await startTestGateway({}, dir);
  gateways.push(gateway);
  return gateway;
}

const recordedGroups = async (gateway: TestGateway) => (await new ProcessGroupFiles(gateway.dataDir).list()).map((e) => e.pgid);

describe('the process-group record of two gateways in one process', () => {
  it("each gateway writes down the stdio servers it starts in its own data directory, never the other's", async () => {
    const first = await gatewayInItsOwnDir();
    // Started second: it used to set the one record every stdio child of the process was written to.
    const second = await gatewayInItsOwnDir();
    const created = await adminApi(first).post('/api/mcp/servers', { name: 'notes', transport: 'stdio', command: process.execPath, args: [notesServer], enabled: true });
    expect(created.status, created.text).toBe(201);

    const [pgid] = await vi.waitFor(async () => {
      const groups = await recordedGroups(first);
      expect(groups).toHaveLength(1);
      return groups;
    }, LONG);
    expect(await recordedGroups(second)).toEqual([]);

    // Deleting the server stops its child, and its gateway forgets the group.
    expect((await adminApi(first).del(`/api/mcp/servers/${created.body.server.id}`)).status).toBe(200);
    await vi.waitFor(async () => expect(await recordedGroups(first)).not.toContain(pgid), LONG);
  });
});
