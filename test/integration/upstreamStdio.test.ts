import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { GatewayError, silentLogger, systemClock } from '../../gateway/core/index.js';
import { UpstreamClient } from '../../gateway/upstream/index.js';
import { isAlive, waitUntil } from '../fixtures/cliProcess.js';

const serverPath = fileURLToPath(new URL('../fixtures/servers/crashingServer.mjs', import.meta.url));
let client: UpstreamClient | undefined;

afterEach(async () => {
  await client?.close();
});

function newClient() {
  return new UpstreamClient({
    id: 'crashing',
    target: { kind: 'stdio', command: process.execPath, args: [serverPath], cwd: process.cwd() },
    log: silentLogger,
    clock: systemClock,
  });
}

function pidsOf(text: string): [number, number] {
  const match = /from (\d+) \(grandchild (\d+)\)/.exec(text)!;
  return [Number(match[1]), Number(match[2])];
}

describe('upstream stdio servers', () => {
  it('a server that exits mid-call gives upstream_unavailable (retryable); the next call restarts it', async () => {
    client = newClient();
    const first = await client.callTool('echo', { text: 'hi' }, { timeoutMs: 10_000 });
    const [pid] = pidsOf((first.content[0] as { text: string }).text);

    const [, grandchild] = pidsOf((first.content[0] as { text: string }).text);
    const crash = await client.callTool('crash', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(GatewayError);
    expect((crash as GatewayError).code).toBe('upstream_unavailable');
    expect((crash as GatewayError).retryable).toBe(true);
    expect((crash as GatewayError).message).toMatch(/^crashing exited with code 3 and wrote nothing to stderr\. It is started again on the next call/);

    expect(await waitUntil(() => !isAlive(grandchild))).toBe(true);

    const again = await client.callTool('echo', { text: 'again' }, { timeoutMs: 10_000 });
    const [newPid] = pidsOf((again.content[0] as { text: string }).text);
    expect(newPid).not.toBe(pid);
  });

  it('a server that exits before answering says how it ended and what it wrote last to stderr; a missing working directory is named', async () => {
    client = new UpstreamClient({ id: 'typo', target: { kind: 'stdio', command: process.execPath, args: ['/nonexistent/server.js'] }, log: silentLogger, clock: systemClock });
    const error = (await client.listTools().catch((e: unknown) => e)) as GatewayError;
    expect(error.code).toBe('upstream_unavailable');
    expect(error.message).toMatch(/^typo exited with code 1; its stderr: ".*Cannot find module '\/nonexistent\/server\.js'/);
    await client.close();
    client = new UpstreamClient({ id: 'moved', target: { kind: 'stdio', command: process.execPath, args: [serverPath], cwd: '/nonexistent/dir' }, log: silentLogger, clock: systemClock });
    expect(((await client.listTools().catch((e: unknown) => e)) as GatewayError).message).toBe(
      'moved: its working directory /nonexistent/dir is not a directory here; change cwd in its settings.',
    );
  });

  it('a call in flight when its server is removed is told the tool is gone, not to retry', async () => {
    client = newClient();
    await client.callTool('echo', { text: 'hi' }, { timeoutMs: 10_000 });
    const inFlight = client.callTool('crash', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await client.close();
    expect(await inFlight).toMatchObject({ code: 'tool_unavailable', retryable: false, message: expect.stringContaining('was stopped while this call ran (removed, or the gateway is shutting down)') });
  });

  it('closing the client kills the server and everything it spawned (its process group)', async () => {
    client = newClient();
    const result = await client.callTool('echo', { text: 'hi' }, { timeoutMs: 10_000 });
    const [pid, grandchild] = pidsOf((result.content[0] as { text: string }).text);
    expect(isAlive(pid)).toBe(true);
    expect(isAlive(grandchild)).toBe(true);
    await client.close();
    expect(await waitUntil(() => !isAlive(pid) && !isAlive(grandchild))).toBe(true);
  });

  it('lists tools of the running server', async () => {
    client = newClient();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['crash', 'echo']);
  });

  it('a server that crashes on every call stops for good after N failures in a row, and says why', async () => {
    const reasons: string[] = [];
    client = new UpstreamClient({
      id: 'crashing', target: { kind: 'stdio', command: process.execPath, args: [serverPath], cwd: process.cwd() },
      log: silentLogger, clock: systemClock, maxConsecutiveFailures: 2, onGiveUp: (e) => reasons.push(e.message),
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await client.callTool('crash', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect((error as GatewayError).code).toBe('upstream_unavailable');
    }
    expect(reasons).toEqual([expect.stringMatching(/crashing was stopped after 2 failures in a row/)]);
    const refused = await client.callTool('echo', { text: 'hi' }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect((refused as GatewayError).message).toBe(reasons[0]);
  });
});
