import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { answerOf, type Answer, type GatewayProcess } from './gatewayProcess.js';

/** Everything the gateway acknowledged to a client during the soak, to find again after each kill -9. */
export interface Ledger {
  answers: LedgerAnswer[];
  /** Projects answered 201. */
  projects: string[];
  /** The config project's name: every name it was acknowledged, in order, and one in flight at the kill. */
  configNames: string[];
  configInFlight?: string;
  /** Permission decisions answered 200, with the status the request must keep. */
  decisions: Array<{ sessionId: string; requestId: string; status: 'allowed' | 'denied' }>;
}

/** An answer, with when the client had it (performance.now()) and whether that was just before a kill. */
export interface LedgerAnswer extends Answer {
  at: number;
  /** Answered within the audit's commit window before a kill (measured generously, 2 s): the completion may not be durable. */
  nearKill?: boolean;
}

export const CONFIG_PROJECT = 'soak-config';

/** How long before a kill an answer counts as `nearKill`. */
const NEAR_KILL_MS = 2000;

/** Runs until `stopped()`: errors once the gateway is killed are expected (nothing was acknowledged). */
type Worker = (stopped: () => boolean) => Promise<void>;

/** Agents calling a built-in source (arXiv, replayed on loopback) as fast as they are answered. */
export function arxivWorker(client: Client, ledger: Ledger): Worker {
  return async (stopped) => {
    while (!stopped()) {
      const result = await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } });
      ledger.answers.push({ ...answerOf(result), at: performance.now() });
    }
  };
}

/** An agent calling a dangerous custom tool while a human decides through the admin API (allow / deny in turn). */
export function permissionWorker(gateway: GatewayProcess, client: Client, sessionId: string, tool: string, ledger: Ledger): Worker {
  return async (stopped) => {
    for (let n = 0; !stopped(); n++) {
      const call = client.callTool({ name: tool, arguments: { text: `note ${n}` } }).then(answerOf);
      call.catch(() => {});
      const requestId = await pendingRequest(gateway, sessionId, stopped);
      if (requestId === undefined) return;
      const decision = n % 3 === 2 ? 'deny' : 'allow_once';
      const decided = await gateway.api.post(`/api/permission-requests/${requestId}/decision`, { decision });
      if (decided.status === 200) ledger.decisions.push({ sessionId, requestId, status: decision === 'deny' ? 'denied' : 'allowed' });
      ledger.answers.push({ ...(await call), at: performance.now() });
    }
  };
}

async function pendingRequest(gateway: GatewayProcess, sessionId: string, stopped: () => boolean): Promise<string | undefined> {
  for (let attempt = 0; attempt < 500 && !stopped(); attempt++) {
    const { body } = await gateway.api.get(`/api/sessions/${sessionId}/permission-requests?status=pending`);
    if (body.requests.length > 0) return body.requests[0].id;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

/** Admin writes: new projects, and renames of one config project (sequential, so at most one is in flight). */
export function adminWorker(gateway: GatewayProcess, cycle: number, ledger: Ledger): Worker {
  return async (stopped) => {
    for (let n = 0; !stopped(); n++) {
      const id = `soak-${cycle}-${n}`;
      if ((await gateway.api.post('/api/projects', { id })).status === 201) ledger.projects.push(id);
      const name = `config ${cycle}.${n}`;
      ledger.configInFlight = name;
      const renamed = await gateway.api.patch(`/api/projects/${CONFIG_PROJECT}`, { name });
      if (renamed.status === 200) ledger.configNames.push(name);
      ledger.configInFlight = undefined;
    }
  };
}

/**
 * Starts the workers and kills the gateway once `acked()` has grown by `minAcked` (at most
 * `maxLoadMs`) plus `extraMs`, so each kill lands under load whatever the machine's speed; then
 * waits for every worker to give up.
 */
export async function loadThenKill(
  gateway: GatewayProcess, workers: Worker[], ledger: Ledger, options: { acked: () => number; minAcked: number; extraMs: number; maxLoadMs: number },
): Promise<void> {
  let stopped = false;
  const running = workers.map((w) => w(() => stopped).catch(() => {}));
  const target = options.acked() + options.minAcked;
  const giveUpAt = Date.now() + options.maxLoadMs;
  while (options.acked() < target && Date.now() < giveUpAt) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, options.extraMs));
  const killedAt = performance.now();
  await gateway.kill9();
  stopped = true;
  await Promise.all(running);
  for (const answer of ledger.answers) if (answer.at > killedAt - NEAR_KILL_MS) answer.nearKill = true;
}
