import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolResult, SourceManifest } from '../../catalog/index.js';
import type { CallDeadline, InvocationOrigin, SessionRecord } from '../core/index.js';
import type { ClientApprover } from '../permissions/index.js';
import type { GovernedTool } from '../registry/index.js';
import type { UpstreamClient } from '../upstream/index.js';
import type { AuditTrail } from './auditTrail.js';

/** A tool call as the agent (or the Inspector) asks for it: what enters the broker. */
export interface ToolRequest {
  readonly invocationId: string;
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
  readonly session: SessionRecord;
  readonly origin: InvocationOrigin;
  /** Aborts on client cancellation or session end. */
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: Progress) => void;
  /** The Inspector restricts a call to one server without touching the Session's selection. */
  readonly allowedSourceIds?: readonly string[];
  /** Asks the human inside the agent's own client (MCP elicitation), when the client can. */
  readonly askClient?: ClientApprover;
}

/** A request inside `withAudit`: its trail, and its arguments as RFC 8785 JSON (cache key and audit blob). */
export interface AuditedRequest extends ToolRequest {
  readonly trail: AuditTrail;
  readonly canonicalArguments: string;
}

/**
 * A call after `withResolve`: everything the later stages need, captured once and never changed.
 * A source removed meanwhile keeps its captured client, which then refuses with `tool_unavailable`.
 */
export interface ResolvedCall extends AuditedRequest {
  readonly tool: GovernedTool;
  readonly manifest: SourceManifest;
  readonly client: UpstreamClient;
  /** The call's tool time; an external wait (a human deciding) holds it. */
  readonly deadline: CallDeadline;
}

/** What a handler returns: the raw upstream answer, and what the stages learned about it. */
export interface ToolOutcome {
  raw: CallToolResult;
  /** The normalized result, once `withNormalize` has run. */
  result?: McpToolResult;
  /** UTF-8 bytes of the upstream's `{content, structuredContent}`, once `withSizeLimit` has run. */
  sizeBytes?: number;
  /** The tool that answered, once `withResolve` has run. */
  tool?: GovernedTool;
  /** A native tool's structured result (then `result` is absent). */
  native?: Record<string, unknown>;
}

export type Handler<Call = ResolvedCall> = (call: Call) => Promise<ToolOutcome>;
export type Stage<Call = ResolvedCall> = (next: Handler<Call>) => Handler<Call>;

/** Builds the handler: the first stage is outermost. */
export function compose<Call>(stages: ReadonlyArray<Stage<Call>>, last: Handler<Call>): Handler<Call> {
  return stages.reduceRight<Handler<Call>>((handler, stage) => stage(handler), last);
}
