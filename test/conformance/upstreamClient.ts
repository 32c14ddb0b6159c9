/**
 * The MCP conformance suite's client entry (`npx conformance client --suite auth --command "node
 * dist/test/conformance/upstreamClient.js"`): the suite starts a scenario's MCP server and
 * authorization server and runs this with the server URL as the last argument. It configures that
 * URL as an OAuth custom server of a scigate gateway (pre-registered credentials from
 * MCP_CONFORMANCE_CONTEXT when the scenario gives them), logs in as an admin would — following the
 * authorization URL with fetch, as the scenario servers approve without a person — and makes one
 * governed tool call as an agent. Exit 0 when the call succeeded.
 *
 * The gateway is the one named by SCIGATE_CONFORMANCE_GATEWAY (`{"url","token"}`: authSuite.test.ts
 * starts one for all fifteen scenarios, each its own custom server and agent session), else one
 * started in-process with a fresh data directory. Starting a whole gateway per scenario cost fifteen
 * gateway start-ups on two cores; a shared one leaves each scenario a small process of SDK client code.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

/** The client ID metadata document URL the suite's CIMD scenario expects (used only where the provider supports it). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Logins in all (the first and each consent to a wider scope): the retry-limit scenario allows three. */
const MAX_LOGINS = 3;
/** Waits wake on the gateway's events; a state change that publishes none is still seen this often. */
const RECHECK_MS = 500;

/** The gateway under test, as this entry uses it. */
interface Gateway {
  url: string;
  mcpUrl: string;
  token: string;
  dispose(): Promise<void>;
}

interface ScenarioContext {
  client_id?: string;
  client_secret?: string;
}

function say(message: string): void {
  process.stderr.write(`[upstreamClient] ${message}\n`);
}

/** The shared gateway named by SCIGATE_CONFORMANCE_GATEWAY, else a fresh in-process one (its code loaded only then). */
async function openGateway(): Promise<Gateway> {
  const shared = process.env.SCIGATE_CONFORMANCE_GATEWAY;
  if (shared) {
    const { url, token } = JSON.parse(shared) as { url: string; token: string };
    return { url, mcpUrl: `${url}/mcp`, token, dispose: async () => {} };
  }
  const { startTestGateway } = await import('../fixtures/testGateway.js');
  return startTestGateway();
}

/** Resolves at the gateway's next event (a login, a discovery) or after RECHECK_MS, whichever is first. */
async function nextChange(events: EventStream): Promise<void> {
  const seen = events.events.length;
  await events.next((event) => events.events.indexOf(event) >= seen, RECHECK_MS).catch(() => undefined);
}

async function admin(gateway: Gateway, method: string, path: string, body?: unknown): Promise<any> {
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
async function logIn(gateway: Gateway, serverId: string): Promise<void> {
  const { authorizationUrl } = await admin(gateway, 'POST', `/api/mcp/servers/${serverId}/oauth/start`, {});
  const approved = await fetch(authorizationUrl, { redirect: 'manual' });
  const callbackUrl = approved.headers.get('location');
  if (!callbackUrl) throw new Error(`the authorization server did not redirect back (${approved.status})`);
  const callback = await fetch(callbackUrl, { redirect: 'manual' });
  const page = await callback.text();
  if (callback.status !== 200) throw new Error(`the callback answered ${callback.status}: ${page.replace(/<[^>]+>/g, ' ').trim()}`);
}

/** Waits until the first discovery has ended (it fails with "log in" on a server that needs one). */
async function settled(gateway: Gateway, events: EventStream, serverId: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const { server } = await admin(gateway, 'GET', `/api/mcp/servers/${serverId}`);
    if (server.discovery !== null || server.authState !== 'required') return;
    await nextChange(events);
  }
}

/** Logs in, and again when a call asks for more consent, as an admin clicks "Log in" again; refuses past MAX_LOGINS. */
function consentLimit(gateway: Gateway, serverId: string): (reason: string) => Promise<void> {
  let logins = 0;
  return async (reason) => {
    if (logins >= MAX_LOGINS) throw new Error(`still refused after ${MAX_LOGINS} logins: ${reason}`);
    logins += 1;
    if (logins > 1) say(`consent needed: ${reason}`);
    await logIn(gateway, serverId);
  };
}

/**
 * Waits for the tools the login made discoverable (generously: the scenarios share two cores). A
 * discovery refused for a scope asks for consent as the admin page does ("log in again"); once the
 * gateway shows the scope refused even after that consent, there is nothing left to wait for.
 */
async function discoveredTool(gateway: Gateway, events: EventStream, serverId: string, consent: (reason: string) => Promise<void>): Promise<string> {
  const until = Date.now() + 90_000;
  let retried = Date.now();
  while (Date.now() < until) {
    const { server } = await admin(gateway, 'GET', `/api/mcp/servers/${serverId}`);
    if (server.tools.length > 0) return server.tools[0].name as string;
    if (server.authState === 'refused') throw new Error(`the gateway shows the scope refused: ${server.authMessage}`);
    if (server.authState === 'required' && server.requiredScope) {
      await consent(server.authMessage);
      continue;
    }
    // A discovery that failed before the login settled is started again (every 5 s), as saving the server does.
    if (server.discovery?.state === 'error' && Date.now() - retried >= 5_000) {
      retried = Date.now();
      await admin(gateway, 'PATCH', `/api/mcp/servers/${serverId}`, { enabled: true });
    }
    await nextChange(events);
  }
  throw new Error('no tool was discovered within 90 s of the login');
}

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1)!;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  // Names one scenario's server and agent apart from the others' on a shared gateway.
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'auth';
  const agentName = `conformance-agent ${scenario}`;
  const gateway = await openGateway();
  const events = await openEventStream(gateway);
  try {
    const auth = context.client_id
      ? { mode: 'oauth', clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) }
      : { mode: 'oauth', clientMetadataUrl: CLIENT_METADATA_URL };
    // Enabled at once, as an admin adds a server: discovery meets the server's 401 challenge (its
    // scope and metadata URL), and the server shows "log in" before the login starts.
    const { server } = await admin(gateway, 'POST', '/api/mcp/servers', { name: `Conformance ${scenario}`, transport: 'http', url: serverUrl, auth, enabled: true });
    await settled(gateway, events, server.id);
    const consent = consentLimit(gateway, server.id);
    await consent('the first login');
    const tool = await discoveredTool(gateway, events, server.id, consent);
    const agent = new Client({ name: agentName, version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
    await agent.connect(new StreamableHTTPClientTransport(new URL(gateway.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
    const { sessions } = await admin(gateway, 'GET', '/api/sessions');
    const session = sessions.find((s: any) => s.clientName === agentName);
    await admin(gateway, 'PATCH', `/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    for (;;) {
      const result = (await agent.callTool({ name: tool, arguments: {} })) as any;
      const error = result.structuredContent?.error;
      if (!result.isError) break;
      // A 403 insufficient_scope asks for consent again, as the admin page would.
      if (error?.code !== 'insufficient_scope') throw new Error(`the governed call failed: ${JSON.stringify(error ?? result.content)}`);
      await consent(error.message);
    }
    say('governed call succeeded');
    await agent.close();
  } finally {
    events.close();
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
