import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolResult } from '../../catalog/index.js';
import type { InvocationOrigin, SessionRecord } from '../core/index.js';
import { CallDeadline, MAX_ARGUMENT_DEPTH, canonicalJson, nestsDeeperThan, type Clock } from '../core/index.js';
import type { ClientApprover } from '../permissions/index.js';
import type { GovernedTool } from '../registry/index.js';

/** What the stages learn about a call as it passes through; the audit stage writes it down. */
export interface CallAudit {
  attempts: number;
  cacheHit: boolean;
  queueWaitMs: number;
  sizeBytes: number | null;
  authorizationId: string | null;
}

/** One governed tool call on its way through the broker. */
export interface ToolCall {
  invocationId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  session: SessionRecord;
  origin: InvocationOrigin;
  /** Aborts on client cancellation or session end. */
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The Inspector restricts a call to one server without touching the Session's selection. */
  allowedSourceIds?: string[];
  /** Set by `withResolve`. */
  tool?: GovernedTool;
  /** The call's tool time; an external wait (a human deciding) holds it. Created on first use by `deadlineOf`. */
  deadline?: CallDeadline;
  /** Asks the human inside the agent's own client (MCP elicitation), when the client can. */
  askClient?: ClientApprover;
  audit: CallAudit;
}

/** The raw upstream answer and, once `withNormalize` has run, the normalized result. */
export interface ToolOutcome {
  raw: CallToolResult;
  result?: McpToolResult;
}

export type Handler = (call: ToolCall) => Promise<ToolOutcome>;
export type Stage = (next: Handler) => Handler;

/** Builds the handler: the first stage is outermost. */
export function compose(stages: Stage[], last: Handler): Handler {
  return stages.reduceRight<Handler>((handler, stage) => stage(handler), last);
}

/** The tool resolved by `withResolve`; stages after it may rely on it. */
export function resolvedTool(call: ToolCall): GovernedTool {
  if (!call.tool) throw new Error('broker stage order is wrong: the tool was not resolved yet');
  return call.tool;
}

/** The call's deadline, created on first use: stages that wait hold it, stages that time the tool measure on it. */
export function deadlineOf(call: ToolCall, clock: Clock): CallDeadline {
  call.deadline ??= new CallDeadline(clock);
  return call.deadline;
}

/** Creates a fresh audit record for a new call. */
export function newCallAudit(): CallAudit {
  return { attempts: 0, cacheHit: false, queueWaitMs: 0, sizeBytes: null, authorizationId: null };
}

const canonicalByCall = new WeakMap<ToolCall, string>();

/**
 * The call's arguments as RFC 8785 JSON, computed once per call (the cache key and the audit blob
 * both need it). Arguments nested past MAX_ARGUMENT_DEPTH, which validation refuses, get a marker
 * instead, so the recursive serializer never sees them.
 */
export function canonicalArguments(call: ToolCall): string {
  let json = canonicalByCall.get(call);
  if (json === undefined) {
    json = nestsDeeperThan(call.arguments, MAX_ARGUMENT_DEPTH)
      ? JSON.stringify({ refused: `nested more than ${MAX_ARGUMENT_DEPTH} levels deep` })
      : canonicalJson(call.arguments);
    canonicalByCall.set(call, json);
  }
  return json;
}
