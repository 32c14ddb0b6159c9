import type { ValidateFunction } from 'ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallDeadline } from '../core/index.js';
import { resultOrErrorJsonSchema } from '../../catalog/index.js';
import { compileOnFirstUse } from '../registry/index.js';
import type { AuditedRequest } from './toolCall.js';

/** A native tool's structured result (its published outputSchema describes it). */
export type NativeToolResult = Record<string, unknown>;

/** A call of a native tool: the audited request plus the call's deadline (held while a human decides). */
export interface NativeCall extends AuditedRequest {
  readonly deadline: CallDeadline;
}

/**
 * A tool the gateway itself implements (`artifact_download`, `paper_extract_pdf`), listed beside the
 * sources' tools. It goes through the broker like every call — one Invocation row (withAudit), its
 * published input schema checked before `run`, its output schema after — but it governs its own
 * work: it asks the permission gate when its action is dangerous (reporting the authorization to
 * `call.trail`), takes slots of the limiter it needs, and reports its source to the trail.
 */
export interface NativeTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Tool['inputSchema'];
  readonly outputSchema: NonNullable<Tool['outputSchema']>;
  readonly annotations?: Tool['annotations'];
  run(call: NativeCall): Promise<NativeToolResult>;
}

/** A native tool with its schemas compiled once, on first use. */
export interface CompiledNativeTool {
  tool: NativeTool;
  validateInput: ValidateFunction;
  validateOutput: ValidateFunction;
}

/** Compiles the tools' schemas; a duplicate name is a wiring error. */
export function compileNativeTools(tools: readonly NativeTool[]): Map<string, CompiledNativeTool> {
  const compiled = new Map<string, CompiledNativeTool>();
  for (const tool of tools) {
    if (compiled.has(tool.name)) throw new Error(`native tool "${tool.name}" is registered twice`);
    compiled.set(tool.name, { tool, validateInput: compileOnFirstUse(tool.inputSchema), validateOutput: compileOnFirstUse(tool.outputSchema) });
  }
  return compiled;
}

/** A native tool as agents see it in tools/list: its outputSchema also admits the error a failed call returns. */
export function toListedNativeTool(tool: NativeTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: resultOrErrorJsonSchema(tool.outputSchema) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}
