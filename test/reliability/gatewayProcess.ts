import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, spawnProcess, type CliProcess } from '../fixtures/cliProcess.js';
import type { AdminApi, ApiResponse } from '../fixtures/custom/adminApi.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

/** Generous: start-up on a loaded 2-core CI machine has been seen to take 10 s and more. */
export const READY_TIMEOUT_MS = 90_000;

/** A real `scigate serve` child process on a free loopback port. */
export interface GatewayProcess {
  proc: CliProcess;
  pid: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  mcpUrl: string;
  token: string;
  api: AdminApi;
  /** An MCP SDK client connected over streamable HTTP with the admin token. */
  connect(name: string): Promise<Client>;
  /** kill -9 of the whole process group; resolves once it has exited. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop: final checkpoint); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the compiled gateway on port 0 in `dataDir` and waits until it prints its endpoints. */
export async function startGateway(dataDir: string, env: Record<string, string>): Promise<GatewayProcess> {
  const proc = spawnProcess(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir], env);
  const [, mcpUrl] = await proc.waitFor(/MCP endpoint: (\S+)/, READY_TIMEOUT_MS);
  const [, url] = await proc.waitFor(/Admin API:\s+(\S+)\/api/, READY_TIMEOUT_MS);
  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const clients: Client[] = [];
  const gateway: GatewayProcess = {
    proc,
    pid: proc.child.pid!,
    url: url!,
    mcpUrl: mcpUrl!,
    token,
    api: freshConnectionApi(url!, token),
    connect: async (name) => {
      const client = new Client({ name, version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
      const headers = { authorization: `Bearer ${token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl!), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    kill9: async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) process.kill(-gateway.pid, 'SIGKILL');
      await proc.exited;
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    },
    stop: async () => {
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
      if (proc.child.exitCode === null) process.kill(gateway.pid, 'SIGTERM');
      return proc.exited;
    },
  };
  return gateway;
}

/** What a client was answered for one tool call: the invocation and `ok` or the error code. */
export interface Answer {
  invocationId: string;
  code: string;
}

/** Reads the answer out of a `tools/call` result (success or structured error). */
export function answerOf(result: any): Answer {
  // A custom tool's result passes through as its server sent it; scigate's provenance (and its own
  // error, for tools with an outputSchema) is in _meta, built-in results carry it in structuredContent.
  // A custom tool's own isError answer is a completed invocation: audited ok.
  const scigate = result._meta?.['scigate/invocation'] ?? result.structuredContent ?? {};
  const invocationId = scigate.invocationId;
  if (typeof invocationId !== 'string') throw new Error(`an answer without scigate's invocationId: ${JSON.stringify(result).slice(0, 300)}`);
  return { invocationId, code: result.isError && scigate.error ? scigate.error.code : 'ok' };
}

/** Every audited invocation the admin API lists, by id (all Sessions, up to 1000 each). */
export async function auditedInvocations(api: AdminApi): Promise<Map<string, any>> {
  const { body } = await api.get('/api/sessions');
  const rows = new Map<string, any>();
  for (const session of body.sessions) {
    const listed = await api.get(`/api/sessions/${session.id}/invocations?limit=1000`);
    for (const row of listed.body.invocations) rows.set(row.id, row);
  }
  return rows;
}

/** The code the audit holds for an invocation: `ok`, `cancelled` or the error code. */
export function auditedCode(row: any): string {
  return row.status === 'ok' ? 'ok' : row.status === 'cancelled' ? 'cancelled' : row.errorCode;
}

/**
 * The admin API over a new connection per request. A reused keep-alive connection races the
 * server closing it after 5 s idle (which a CPU-starved machine reaches easily) and fails with
 * "other side closed" though the gateway is fine; a soak must not mistake that for a fault.
 */
function freshConnectionApi(url: string, token: string): AdminApi {
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<ApiResponse>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) };
      const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  const api: AdminApi = {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body ?? {}),
    patch: (path, body) => call('PATCH', path, body),
    del: (path) => call('DELETE', path),
    sessionOf: async (clientName) => {
      for (let attempt = 0; attempt < 400; attempt++) {
        const session = (await api.get('/api/sessions')).body.sessions.find((s: any) => s.clientName === clientName);
        if (session) return session;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no session for client ${clientName}`);
    },
  };
  return api;
}
