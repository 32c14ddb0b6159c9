import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ClientCapabilities, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, REPO_ROOT } from '../fixtures/cliProcess.js';
import { useCliJourney } from '../fixtures/cliJourney.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

const fidelityServer = fileURLToPath(new URL('../fixtures/servers/fidelityServer.mjs', import.meta.url));
const j = useCliJourney();

async function stdioClient(args: string[], capabilities: ClientCapabilities = {}): Promise<Client> {
  const client = new Client({ name: 'stdio-fidelity', version: '1.0.0' }, { capabilities, jsonSchemaValidator: sharedSchemaValidator });
  const env = { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'stdio', ...args], env, cwd: REPO_ROOT, stderr: 'pipe' }));
  j.clients.push(client);
  return client;
}

/** A fresh data directory with one custom server, configured through a first run's admin API as a user would. */
async function dataDirWithServer(server: Record<string, unknown>): Promise<string> {
  const dir = await j.freshDataDir();
  const port = await j.freePort();
  const first = await stdioClient(['--data-dir', dir, '--admin-port', String(port)]);
  await first.listTools();
  const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
  const created = await fetch(`http://127.0.0.1:${port}/api/mcp/servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(server),
  });
  expect(created.status).toBe(201);
  await first.close();
  return dir;
}

describe('scigate stdio with an enabled custom server', () => {
  it("the first tools/list already has the custom server's tools; a dangerous call nobody can approve fails at once, saying how to approve", async () => {
    const dir = await dataDirWithServer({ name: 'fidelity', transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true });

    // A client that lists tools once, at start-up, and declares no elicitation; no --admin-port.
    const agent = await stdioClient(['--data-dir', dir]);
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__fidelity__add');
    const refused = (await agent.callTool({ name: 'mcp__fidelity__add', arguments: { a: 1, b: 2 } })) as any;
    expect(refused.isError).toBe(true);
    const error = refused._meta['scigate/invocation'].error;
    expect(error.code).toBe('permission_denied');
    expect(error.message).toContain('--admin-port');
    expect(error.message).toContain('always_allow');
    // The tool as the agent called it; its internal resource id (mcp__custom-<hex>__…) means nothing to the agent.
    expect(error.message).toContain('Nobody can approve this call to mcp__fidelity__add:');
    expect(error.message).not.toContain('mcp__custom-');
  });
});

describe('scigate stdio without --admin-port, asking in the agent\'s client', () => {
  it('a question the user dismisses, or answers without a decision, ends the call at once, saying how to approve', async () => {
    const dir = await dataDirWithServer({ name: 'everything', ...everythingStdio(), enabled: true });
    const agent = await stdioClient(['--data-dir', dir], { elicitation: { form: {} } });
    const answers: ElicitResult[] = [{ action: 'cancel' }, { action: 'accept', content: { note: 'no decision here' } }];
    let asked = 0;
    agent.setRequestHandler(ElicitRequestSchema, async () => answers[asked++]!);
    await agent.listTools();
    for (let i = 0; i < answers.length; i++) {
      // Without an end here the call would wait out the 15-minute approval timeout: fail long before.
      const refused = (await agent.callTool({ name: 'mcp__everything__echo', arguments: { message: 'hi' } }, undefined, { timeout: 15_000 })) as any;
      expect(refused.isError).toBe(true);
      const error = refused.structuredContent.error;
      expect(error.code).toBe('permission_denied');
      expect(error.message).toContain('dismissed the approval question for mcp__everything__echo');
      expect(error.message).toContain('--admin-port');
      expect(error.message).not.toContain('mcp__custom-');
      expect(asked).toBe(i + 1);
    }
  });
});

describe('scigate stdio relays a custom server\'s prompts, completions and resources', () => {
  it('declares them before discovery and serves server-everything\'s under namespaced names', async () => {
    const dir = await dataDirWithServer({ name: 'everything', ...everythingStdio(), enabled: true });

    const agent = await stdioClient(['--data-dir', dir]);
    expect(agent.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, prompts: { listChanged: true }, completions: {} });
    // The first tools/list waits for start-up discovery; the prompts are known from then on.
    await agent.listTools();
    expect((await agent.listPrompts()).prompts.map((p) => p.name)).toContain('mcp__everything__args-prompt');
    const prompt = await agent.getPrompt({ name: 'mcp__everything__args-prompt', arguments: { city: 'Basel' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: "What's weather in Basel?" });
    const done = await agent.complete({ ref: { type: 'ref/prompt', name: 'mcp__everything__completable-prompt' }, argument: { name: 'department', value: 'S' } });
    expect(done.completion.values).toEqual(['Sales', 'Support']);
    expect((await agent.listResources()).resources.some((r) => r.uri.startsWith('scigate://everything/'))).toBe(true);
  });
});
