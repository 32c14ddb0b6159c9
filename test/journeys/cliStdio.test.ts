import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createServer } from 'node:net';
import { CLI, REPO_ROOT, spawnCli } from '../fixtures/cliProcess.js';
import { useCliJourney } from '../fixtures/cliJourney.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

const j = useCliJourney();

describe('scigate stdio and scigate source from the command line', () => {
  it('scigate stdio serves one MCP session over stdin/stdout', async () => {
    const dir = await j.freshDataDir();
    const client = new Client({ name: 'stdio-journey', version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'stdio', '--data-dir', dir], env: { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' }, cwd: REPO_ROOT, stderr: 'pipe' }),
    );
    j.clients.push(client);
    const result = await j.searchArxiv(client);
    expect(result.structuredContent.invocationId).toMatch(/^inv_/);
  });

  it('scigate stdio --admin-port keeps the admin API reachable for the stdio session', async () => {
    const dir = await j.freshDataDir();
    const port = await j.freePort();
    const client = new Client({ name: 'stdio-admin', version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'stdio', '--data-dir', dir, '--admin-port', String(port), '--project', 'grant-42'],
      env: { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' },
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    await client.connect(transport);
    j.clients.push(client);
    await j.searchArxiv(client);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const response = await fetch(`http://127.0.0.1:${port}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });
    const { sessions } = (await response.json()) as any;
    expect(sessions[0]).toMatchObject({ transport: 'stdio', projectId: 'grant-42', clientName: 'stdio-admin' });
  });

  it('scigate stdio with a busy --admin-port answers each request with the cause and exits 2, as serve does', async () => {
    const dir = await j.freshDataDir();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const cli = spawnCli(['stdio', '--data-dir', dir, '--admin-port', String(port)], j.arxivEnv());
      const line = (message: object) => cli.child.stdin!.write(`${JSON.stringify(message)}\n`);
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'busy', version: '1' } } });
      line({ jsonrpc: '2.0', method: 'notifications/initialized' });
      line({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await cli.waitFor(new RegExp(`"id":2,.*Port ${port} on 127.0.0.1 is already in use; choose another with --admin-port`));
      cli.child.stdin!.end();
      expect(await cli.exited).toBe(2);
    } finally {
      busy.close();
    }
  });

  it('scigate source arxiv is a plain MCP server any client can use without the gateway', async () => {
    const client = new Client({ name: 'source-journey', version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'source', 'arxiv'], env: { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' }, cwd: REPO_ROOT, stderr: 'pipe' }),
    );
    j.clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const result = (await client.callTool({ name: 'get', arguments: { ids: ['2104.12255v1'] } })) as any;
    expect(result.structuredContent.records[0].sourceRecordId).toBe('2104.12255v1');
  });
});
