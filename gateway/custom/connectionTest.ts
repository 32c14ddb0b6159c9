import type { CustomServerConfig, ToolPrefix } from '../../catalog/index.js';
import { GatewayError, type Clock, type Logger, type ProcessGroupRecord, type SecretScrubber } from '../core/index.js';
import { TASK_ONLY_REASON, customToolId, deriveCustomTools } from '../registry/index.js';
import { UpstreamClient, type UpstreamAuth, type UpstreamTarget } from '../upstream/index.js';
import { resolveCustomTarget, secretValuesOf, type GatewayEnvironment } from './customTarget.js';
import { customServerLabel } from './customClients.js';

export interface ConnectionCheck {
  name: 'configuration' | 'connect' | 'list_tools' | 'input_schemas';
  ok: boolean;
  message: string;
}

export interface TestedTool {
  name: string;
  toolId: string;
  description: string;
  ok: boolean;
  reason?: string;
}

/** What `POST /api/mcp/servers/:id/test` answers (HTTP 200 whether or not `ok`). */
export interface ConnectionTestResult {
  ok: boolean;
  checks: ConnectionCheck[];
  tools: TestedTool[];
  durationMs: number;
  testedAt: string;
}

export interface ConnectionTestOptions {
  config: CustomServerConfig;
  environment: GatewayEnvironment;
  toolPrefix: ToolPrefix;
  clock: Clock;
  log: Logger;
  secrets: SecretScrubber;
  /** The server's OAuth manager (shared with its catalog client and the Inspector), when it uses OAuth. */
  auth?: UpstreamAuth;
  /** A stdio probe's process group is written down here while it runs. */
  processGroups?: ProcessGroupRecord;
}

/**
 * Probes a server on its own client (never the catalog's): resolve `$NAME` values, connect and
 * initialize, list tools, compile every input schema; then close the probe. Calls no tool and
 * changes no enablement; a STDIO server's program does run for the probe.
 */
export async function runConnectionTest(options: ConnectionTestOptions): Promise<ConnectionTestResult> {
  const { config, clock, secrets } = options;
  const startedAt = clock.now();
  const checks: ConnectionCheck[] = [];
  // The probe's own config is registered while it runs: an edit saved meanwhile replaces the
  // server's registration, and the probe's messages may still quote the older values.
  const owner = `${config.id}#probe-${++probeCount}`;
  secrets.register(owner, () => secretValuesOf(config, options.environment));
  try {
    const target = resolveTarget(options, checks);
    const tools = target ? await probeTarget(target, options, checks) : [];
    const endedAt = clock.now();
    const result = { ok: checks.every((c) => c.ok), checks, tools, durationMs: endedAt - startedAt, testedAt: new Date(endedAt).toISOString() };
    return secrets.scrubValue(result);
  } finally {
    secrets.forget(owner);
  }
}

let probeCount = 0;

async function probeTarget(target: UpstreamTarget, options: ConnectionTestOptions, checks: ConnectionCheck[]): Promise<TestedTool[]> {
  const { config } = options;
  const client = new UpstreamClient({
    id: config.id,
    name: customServerLabel(config),
    target,
    log: options.log.child({ sourceId: config.id, probe: true }),
    secrets: options.secrets,
    clock: options.clock,
    connectTimeoutMs: config.timeoutSeconds * 1000,
    ...(options.processGroups ? { processGroups: options.processGroups } : {}),
  });
  try {
    return await probe(client, options, checks);
  } finally {
    await client.close();
  }
}

function resolveTarget(options: ConnectionTestOptions, checks: ConnectionCheck[]): UpstreamTarget | undefined {
  try {
    const target = resolveCustomTarget(options.config, options.environment, options.auth);
    checks.push({ name: 'configuration', ok: true, message: 'every $NAME value resolves in the gateway environment' });
    return target;
  } catch (error) {
    checks.push({ name: 'configuration', ok: false, message: GatewayError.from(error).message });
    return undefined;
  }
}

async function probe(client: UpstreamClient, options: ConnectionTestOptions, checks: ConnectionCheck[]): Promise<TestedTool[]> {
  const transport = options.config.transport;
  try {
    await client.open();
    checks.push({ name: 'connect', ok: true, message: `connected and initialized over ${transport}` });
  } catch (error) {
    checks.push({ name: 'connect', ok: false, message: messageOf(error) });
    return [];
  }
  let listed;
  try {
    listed = await client.listTools();
    checks.push({ name: 'list_tools', ok: true, message: `the server lists ${listed.length} tool${listed.length === 1 ? '' : 's'}` });
  } catch (error) {
    checks.push({ name: 'list_tools', ok: false, message: messageOf(error) });
    return [];
  }
  const derived = deriveCustomTools({ sourceId: options.config.id, listed, prefix: options.toolPrefix, accepted: undefined });
  // A task-only tool is not a broken one: it is hidden by design, with its reason in the tool list.
  const failed = derived.hidden.filter((h) => h.reason !== TASK_ONLY_REASON);
  checks.push({
    name: 'input_schemas',
    ok: failed.length === 0,
    message: failed.length === 0
      ? `all ${listed.length} input schemas compile`
      : `${failed.length} of ${listed.length} tools are unusable: ${failed.map((h) => `${h.name} (${h.reason})`).join('; ').slice(0, 400)}`,
  });
  return listed.map((tool) => {
    const governed = derived.tools.find((t) => t.upstreamName === tool.name);
    const hidden = derived.hidden.find((h) => h.name === tool.name);
    return {
      name: tool.name,
      toolId: governed?.toolId ?? customToolId(tool.name),
      description: tool.description ?? '',
      ok: governed !== undefined,
      ...(hidden ? { reason: hidden.reason } : {}),
    };
  });
}

function messageOf(error: unknown): string {
  return error instanceof GatewayError ? error.message : 'the probe failed; see the gateway log';
}
