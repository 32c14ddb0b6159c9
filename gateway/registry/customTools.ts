import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TOOL_NAME_CHARS, governedToolName, readableNamePart, type ToolPrefix } from '../../catalog/index.js';
import { canonicalJson } from '../core/index.js';
import { compileInputSchema } from './compileInputSchema.js';
import type { DerivedTools, GovernedTool, HiddenTool, UpstreamToolDefinition } from './governedTool.js';

/** Agent-facing names may only use these characters (model providers reject others). */
export const AGENT_TOOL_NAME = /^[a-zA-Z0-9_-]+$/;
/** Room a tool id has after `mcp__custom-<12 hex>__`, so every name fits in 64 characters. */
const MAX_CUSTOM_TOOL_ID_CHARS = MAX_TOOL_NAME_CHARS - 'mcp__custom-000000000000__'.length;
const HASH_CHARS = 6;
/**
 * Most tools scigate takes from one server. Each one's input schema is compiled at discovery, about
 * a millisecond during which no Session is served: a server listing 20,000 tools held the gateway for
 * 18 s, again at every reconnect. Real servers list tens of tools, the largest a few hundred.
 */
export const MAX_TOOLS_PER_SERVER = 1000;
/** Why a tool that only runs as an MCP task is not listed (shown in the catalog status). */
export const TASK_ONLY_REASON =
  'it can only run as an MCP task (execution.taskSupport "required"), which scigate does not broker yet; call it on the server directly';

export interface CustomToolsInput {
  sourceId: string;
  /**
   * The readable stand-in for the Source ID in agent-facing names (the slug of the server's display
   * name), when it is unique among the sources; names fall back to `sourceId` and hashed ids otherwise.
   */
  label?: string;
  listed: Tool[];
  prefix: ToolPrefix;
  /** Accepted definition hash by upstream name; undefined before the first acceptance (all accepted). */
  accepted: Readonly<Record<string, string>> | undefined;
}

export interface DerivedCustomTools extends DerivedTools {
  /** The definition hash of every listed tool, by upstream name (what an admin accepts). */
  definitions: Record<string, string>;
}

/**
 * The local id of an upstream tool: its normalized name plus a short hash of the original name,
 * so two names that normalize alike stay distinct; the original is kept for protocol calls.
 */
export function customToolId(upstreamName: string): string {
  const hash = createHash('sha256').update(upstreamName).digest('hex').slice(0, HASH_CHARS);
  let base = upstreamName.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
  if (!/^[a-z]/.test(base)) base = `t_${base}`.replace(/_$/, '');
  return `${base.slice(0, MAX_CUSTOM_TOOL_ID_CHARS - HASH_CHARS - 1).replace(/_$/, '')}_${hash}`;
}

/** Hash of what a server tells agents about a tool: name, title, description and schemas. */
export function toolDefinitionHash(tool: Tool): string {
  const definition = {
    name: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
  };
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

const LISTED_AGAIN = 'the server lists this tool name more than once; its first listing is the one used';

/**
 * Adapts a custom server's listed tools into generic governed tools (seed §5.4): never idempotent,
 * no cache. A tool stays hidden, with the reason, when its schema does not compile, its name does
 * not fit, its definition differs from the accepted one (pinning), or it comes after the first
 * MAX_TOOLS_PER_SERVER.
 */
export function deriveCustomTools(input: CustomToolsInput): DerivedCustomTools {
  const tools: GovernedTool[] = [];
  const hidden: HiddenTool[] = [];
  const definitions: Record<string, string> = {};
  // A name listed again is not a second tool: the first listing is (as ToolRules checks results).
  const seen = new Set<string>();
  const considered = input.listed.slice(0, MAX_TOOLS_PER_SERVER).filter((listed) => {
    if (!seen.has(listed.name)) return seen.add(listed.name);
    hidden.push({ name: listed.name, reason: LISTED_AGAIN });
    return false;
  });
  const readableCounts = new Map<string, number>();
  for (const listed of considered) {
    const readable = readableNamePart(listed.name);
    readableCounts.set(readable, (readableCounts.get(readable) ?? 0) + 1);
  }
  for (const listed of considered) {
    const hash = toolDefinitionHash(listed);
    definitions[listed.name] = hash;
    const toolId = customToolId(listed.name);
    const name = agentFacingName(input, listed.name, toolId, readableCounts);
    const reason = hiddenReason({ input, listed, hash, name, taken: tools });
    if (reason) {
      hidden.push({ name: listed.name, reason });
      continue;
    }
    try {
      tools.push(genericTool(input.sourceId, listed, toolId, name));
    } catch (error) {
      hidden.push({ name: listed.name, reason: `its input schema does not compile: ${(error as Error).message.slice(0, 200)}` });
    }
  }
  const beyond = `scigate takes at most ${MAX_TOOLS_PER_SERVER} tools from one server, and this one lists ${input.listed.length}; ask its maintainer to split it`;
  for (const listed of input.listed.slice(MAX_TOOLS_PER_SERVER)) hidden.push({ name: listed.name, reason: beyond });
  return { tools, hidden, definitions, ...(input.label ? { label: input.label } : {}) };
}

/**
 * The agent-facing names of a custom server's named items (prompts), built like its tool names:
 * `mcp__<label>__<readable name>`, else the hashed id; by upstream name.
 */
export function customItemNames(input: Pick<CustomToolsInput, 'sourceId' | 'label' | 'prefix'>, upstreamNames: readonly string[]): Map<string, string> {
  const readableCounts = new Map<string, number>();
  for (const name of upstreamNames) readableCounts.set(readableNamePart(name), (readableCounts.get(readableNamePart(name)) ?? 0) + 1);
  return new Map(upstreamNames.map((name) => [name, agentFacingName(input, name, customToolId(name), readableCounts)]));
}

/**
 * `mcp__<label>__<readable tool name>` when that is unique and fits; else the label with the hashed
 * tool id (two tools normalize alike, or the name is too long); else today's `mcp__<sourceId>__<toolId>`.
 * `toolId` itself stays the hashed, stable id: Grants and the audit name tools by it, so a rename
 * changes what agents see but never what a Grant matches.
 */
function agentFacingName(input: Pick<CustomToolsInput, 'sourceId' | 'label' | 'prefix'>, upstreamName: string, toolId: string, readableCounts: Map<string, number>): string {
  const readable = readableNamePart(upstreamName);
  const candidates: string[] = [];
  if (input.label) {
    if (readable && readableCounts.get(readable) === 1) candidates.push(governedToolName(input.label, readable, input.prefix));
    candidates.push(governedToolName(input.label, toolId, input.prefix));
  }
  const fallback = governedToolName(input.sourceId, toolId, input.prefix);
  return candidates.find((c) => c.length <= MAX_TOOL_NAME_CHARS && AGENT_TOOL_NAME.test(c)) ?? fallback;
}

function hiddenReason(o: { input: CustomToolsInput; listed: Tool; hash: string; name: string; taken: GovernedTool[] }): string | undefined {
  const accepted = o.input.accepted;
  const how = `an admin must accept it (POST /api/mcp/servers/${o.input.sourceId}/accept-tools)`;
  if (accepted && accepted[o.listed.name] === undefined) return `it appeared after the server's tools were accepted; ${how}`;
  if (accepted && accepted[o.listed.name] !== o.hash) return `its definition changed since it was accepted; ${how}`;
  if (o.listed.execution?.taskSupport === 'required') return TASK_ONLY_REASON;
  if (o.name.length > MAX_TOOL_NAME_CHARS || !AGENT_TOOL_NAME.test(o.name)) return 'no valid agent-facing name can be made for it';
  if (o.taken.some((t) => t.name === o.name)) return `another tool of this server already has the local name ${o.name}`;
  return undefined;
}

function genericTool(sourceId: string, listed: Tool, toolId: string, name: string): GovernedTool {
  return {
    name,
    sourceId,
    toolId,
    upstreamName: listed.name,
    title: listed.title ?? listed.annotations?.title ?? listed.name,
    description: listed.description?.trim() || `Tool "${listed.name}" of a custom MCP server.`,
    inputSchema: listed.inputSchema,
    validate: compileInputSchema(listed.inputSchema),
    idempotent: false,
    cacheTtlMs: 0,
    envelope: 'generic',
    upstream: upstreamDefinition(listed),
  };
}

/** The definition fields agents see as the server declared them. */
function upstreamDefinition(listed: Tool): UpstreamToolDefinition {
  const { title, outputSchema, annotations, icons, _meta } = listed;
  return {
    ...(title !== undefined ? { title } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(icons !== undefined ? { icons } : {}),
    ...(_meta !== undefined ? { _meta } : {}),
  };
}
