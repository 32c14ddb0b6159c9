import { describe, expect, it } from 'vitest';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { childPids, isAlive, spawnCli, waitUntil } from '../fixtures/cliProcess.js';
import { useCliJourney } from '../fixtures/cliJourney.js';

const j = useCliJourney();

describe('the gateway\'s processes from the command line: kill -9 and isolated sources', () => {
  it('kill -9 right after a call returns loses neither the invocation nor its stored arguments and result', async () => {
    const dir = await j.freshDataDir();
    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir], j.arxivEnv());
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const result = await j.searchArxiv(await j.httpClient(mcpUrl!, token));
    process.kill(j.running.child.pid!, 'SIGKILL');
    await j.running.exited;

    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir], j.arxivEnv());
    const [, url] = await j.running.waitFor(/Admin API:\s+(\S+)\/api/);
    const headers = { authorization: `Bearer ${token}` };
    const { sessions } = (await (await fetch(`${url}/api/sessions`, { headers })).json()) as any;
    expect(sessions).toHaveLength(1);
    const detail = (await (await fetch(`${url}/api/sessions/${sessions[0].id}/invocations/${result.structuredContent.invocationId}`, { headers })).json()) as any;
    // docs/storage.md: the answer waited for the intent (with the arguments); the completion (with
    // the result) is durable within one commit window of the answer, so a kill that beats it leaves
    // the row interrupted.
    expect(detail.arguments).toEqual({ query: 'testing' });
    if (detail.invocation.status !== 'interrupted') {
      expect(detail.invocation.status).toBe('ok');
      const { invocationId: _id, ...normalized } = result.structuredContent;
      expect(detail.result).toEqual(normalized);
    }
    // The audit segments hold the stored arguments and results: private, like the CAS.
    const segments = await readdir(join(dir, 'audit'));
    expect(segments.length).toBeGreaterThan(0);
    for (const file of segments) expect((await stat(join(dir, 'audit', file))).mode & 0o777).toBe(0o600);
  });

  it('with --isolate-sources, stopping the gateway leaves none of its source processes alive', async () => {
    const dir = await j.freshDataDir();
    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir, '--isolate-sources'], j.arxivEnv());
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    await j.searchArxiv(await j.httpClient(mcpUrl!, token));
    const children = childPids(j.running.child.pid!);
    expect(children.length).toBeGreaterThan(0);
    process.kill(j.running.child.pid!, 'SIGTERM');
    expect(await j.running.exited).toBe(0);
    expect(await waitUntil(() => children.every((pid) => !isAlive(pid)))).toBe(true);
  });
});
