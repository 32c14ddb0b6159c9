import type { ValidateFunction } from 'ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TOOL_NAME_CHARS, governedToolName, type SourceManifest, type ToolPrefix } from '../../catalog/index.js';
import { compileOnFirstUse } from './compileInputSchema.js';

/** A tool the gateway exposes to agents, with its compiled input validator. */
export interface GovernedTool {
  /** The name agents call: `mcp__<sourceId>__<toolId>`. */
  name: string;
  sourceId: string;
  toolId: string;
  /** The tool's name on the upstream server. */
  upstreamName: string;
  title: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  validate: ValidateFunction;
  idempotent: boolean;
  cacheTtlMs: number;
  /** Built-in results must be McpToolResult envelopes; custom results are wrapped generically. */
  envelope: 'scientific' | 'generic';
  /** A custom tool's own definition fields, passed through to agents unchanged (scigate may add, never replace). */
  upstream?: UpstreamToolDefinition;
}

/** What a custom server declared about a tool beyond its name, description and input schema. */
export type UpstreamToolDefinition = Pick<Tool, 'title' | 'outputSchema' | 'annotations' | 'icons' | '_meta'>;

/** A tool kept away from agents, and why (shown in the catalog status). */
export interface HiddenTool {
  name: string;
  reason: string;
}

export interface DerivedTools {
  tools: GovernedTool[];
  hidden: HiddenTool[];
  /** A custom server's readable name in agent-facing names (its tools, prompts and resource URIs), when it has one. */
  label?: string;
}

/**
 * Matches a built-in source's manifest tools to what its server really lists: a tool the server
 * lacks, whose input schema does not compile, or whose name is too long stays hidden, with the reason.
 */
export function deriveBuiltinTools(manifest: SourceManifest, listed: Tool[], prefix: ToolPrefix): DerivedTools {
  const tools: GovernedTool[] = [];
  const hidden: HiddenTool[] = [];
  for (const spec of manifest.tools) {
    const upstreamName = spec.upstreamName ?? spec.id;
    const name = governedToolName(manifest.id, spec.id, prefix);
    const offered = listed.find((t) => t.name === upstreamName);
    if (!offered) {
      hidden.push({ name, reason: `the ${manifest.id} server does not offer a tool named "${upstreamName}"` });
      continue;
    }
    if (name.length > MAX_TOOL_NAME_CHARS) {
      hidden.push({ name, reason: `the name is longer than ${MAX_TOOL_NAME_CHARS} characters` });
      continue;
    }
    try {
      const inputSchema = closedObject(offered.inputSchema);
      tools.push({
        name,
        sourceId: manifest.id,
        toolId: spec.id,
        upstreamName,
        title: spec.title,
        description: spec.description,
        inputSchema,
        validate: compileOnFirstUse(inputSchema),
        idempotent: spec.idempotent,
        cacheTtlMs: spec.cacheTtlMs ?? manifest.cacheTtlMs,
        envelope: 'scientific',
      });
    } catch (error) {
      hidden.push({ name, reason: `its input schema does not compile: ${(error as Error).message.slice(0, 200)}` });
    }
  }
  for (const extra of listed.filter((t) => !manifest.tools.some((s) => (s.upstreamName ?? s.id) === t.name))) {
    hidden.push({ name: extra.name, reason: 'the server offers it but the manifest does not list it' });
  }
  return { tools, hidden };
}

/**
 * Built-in tools are ours, so their object schemas are closed: a misspelled field (`max_results`)
 * is refused by name instead of silently ignored. Custom servers' schemas are never rewritten.
 */
function closedObject(schema: Tool['inputSchema']): Tool['inputSchema'] {
  return schema.type === 'object' && schema.additionalProperties === undefined ? { ...schema, additionalProperties: false } : schema;
}
