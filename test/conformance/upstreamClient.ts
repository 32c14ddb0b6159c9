/**
 * The MCP conformance suite's client entry (`npx conformance client --suite auth --command "node
 * dist/test/conformance/upstreamClient.js"`): the suite starts a scenario's MCP server and
 * authorization server and runs this with the server URL as the last argument. It starts scigate
 * in-process, configures that URL as an OAuth custom server (pre-registered credentials from
 * MCP_CONFORMANCE_CONTEXT when the scenario gives them), logs in as an admin would — following the
 * authorization URL with fetch, as the scenario servers approve without a person — and makes one
 * governed tool call as an agent. Exit 0 when the call succeeded.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/** The client ID metadata document URL the suite's CIMD scenario expects (used only where the provider supports it). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_CONSENTS = 3;

interface ScenarioContext {
  client_id?: string;
  client_secret?: string;
}

function say(message: string): void {
  process.stderr.write(`[upstreamClient] ${message}\n`);
}

async function admin(gateway: TestGateway, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${gateway.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** start → the provider's authorization endpoint → the gateway's callback, all without a person. */
async function logIn(gateway: TestGateway, serverId: string): Promise<void> {
  const { authorizationUrl } = await admin(gateway, 'POST', `/api/mcp/servers/${serverId}/oauth/start`, {});
  const approved = await fetch(authorizationUrl, { redirect: 'manual' });
  const callbackUrl = approved.headers.get('location');
  if (!callbackUrl) throw new Error(`the authorization server did not redirect back (${approved.status})`);
  const callback = await fetch(callbackUrl, { redirect: 'manual' });
  const page = await callback.text();
  if (callback.status !== 200) throw new Error(`the callback answered ${callback.status}: ${page.replace(/<[^>]+>/g, ' ').trim()}`);
}

/** Waits until the first discovery has ended (it fails with "log in" on a server that needs one). */
async function settled(gateway: TestGateway, serverId: string): Promise<void> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const { server } = await admin(gateway, 'GET', `/api/mcp/servers/${serverId}`);
    if (server.discovery !== null || server.authState !== 'required') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the tools the login made discoverable (generously: fifteen gateways may share two cores). */
async function discoveredTool(gateway: TestGateway, serverId: string): Promise<string> {
  for (let attempt = 1; attempt <= 900; attempt++) {
    const { server } = await admin(gateway, 'GET', `/api/mcp/servers/${serverId}`);
    if (server.tools.length > 0) return server.tools[0].name as string;
    // A discovery that failed before the login settled is started again, as saving the server does.
    if (server.discovery?.state === 'error' && attempt % 50 === 0) await admin(gateway, 'PATCH', `/api/mcp/servers/${serverId}`, { enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no tool was discovered within 90 s of the login');
}

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1)!;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  const gateway = await startTestGateway();
  try {
    const auth = context.client_id
      ? { mode: 'oauth', clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) }
      : { mode: 'oauth', clientMetadataUrl: CLIENT_METADATA_URL };
    // Enabled at once, as an admin adds a server: discovery meets the server's 401 challenge (its
    // scope and metadata URL), and the server shows "log in" before the login starts.
    const { server } = await admin(gateway, 'POST', '/api/mcp/servers', { name: 'Conformance', transport: 'http', url: serverUrl, auth, enabled: true });
    await settled(gateway, server.id);
    await logIn(gateway, server.id);
    const tool = await discoveredTool(gateway, server.id);
    const agent = new Client({ name: 'conformance-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(gateway.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
    const { sessions } = await admin(gateway, 'GET', '/api/sessions');
    const session = sessions.find((s: any) => s.clientName === 'conformance-agent');
    await admin(gateway, 'PATCH', `/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    for (let consent = 1; ; consent++) {
      const result = (await agent.callTool({ name: tool, arguments: {} })) as any;
      const error = result.structuredContent?.error;
      if (!result.isError) break;
      // A 403 insufficient_scope asks for consent again, as the admin page would.
      if (error?.code !== 'insufficient_scope' || consent >= MAX_CONSENTS) throw new Error(`the governed call failed: ${JSON.stringify(error ?? result.content)}`);
      say(`consent needed: ${error.message}`);
      await logIn(gateway, server.id);
    }
    say('governed call succeeded');
    await agent.close();
  } finally {
    await gateway.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
