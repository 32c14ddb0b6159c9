import { withFields } from '../core/index.js';
import type { CallEnding } from '../metrics/index.js';
import type { GovernedTool } from '../registry/index.js';

/** What the audit row says about how a call went, besides its result. */
export interface AuditFacts {
  tool: GovernedTool | null;
  attempts: number;
  cacheHit: boolean;
  /** A cacheable call looked in the cache and found nothing. */
  cacheMiss: boolean;
  queueWaitMs: number;
  /** The call waited for a limiter slot at least once (queueWaitMs then counts, even if 0). */
  queued: boolean;
  sizeBytes: number | null;
  authorizationId: string | null;
  /** A native tool's name, and the source its work concerned once known (artifact_download: the candidate's). */
  native: { toolId: string; sourceId: string | null } | null;
}

/**
 * The one record of what happened to a call on its way through the broker. `withAudit` creates it
 * and is its only reader; every other stage only reports to it, so no stage depends on what another
 * stage wrote (a stage that needs a fact gets it from the outcome `next` returns).
 */
export class AuditTrail {
  private readonly state: AuditFacts = {
    tool: null, attempts: 0, cacheHit: false, cacheMiss: false, queueWaitMs: 0, queued: false, sizeBytes: null, authorizationId: null, native: null,
  };
  /** Writes the answer waits for besides the intent, their failures caught at once (never unhandled). */
  private readonly writes: Array<Promise<{ failure?: unknown }>> = [];

  private hasActed = false;

  /** `onActing`: told once, when the call first acts (an upstream attempt, or a native tool starting). */
  constructor(private readonly onActing?: () => void) {}

  resolved(tool: GovernedTool): void {
    this.state.tool = tool;
  }

  /** The call is a native tool's. */
  native(toolId: string): void {
    this.state.native = { toolId, sourceId: null };
    this.acting();
  }

  /** The native tool's work concerns this source (the Invocation row and metrics name it). */
  nativeSource(sourceId: string): void {
    if (this.state.native) this.state.native = withFields(this.state.native, { sourceId });
  }

  /** One attempt against the upstream started. */
  attempted(): void {
    this.state.attempts += 1;
    this.acting();
  }

  /** Whether the call has acted: an upstream attempt, or a native tool starting. */
  get acted(): boolean {
    return this.hasActed;
  }

  private acting(): void {
    if (this.hasActed) return;
    this.hasActed = true;
    this.onActing?.();
  }

  queued(waitMs: number): void {
    this.state.queueWaitMs += waitMs;
    this.state.queued = true;
  }

  cacheHit(): void {
    this.state.cacheHit = true;
  }

  cacheMissed(): void {
    this.state.cacheMiss = true;
  }

  sized(bytes: number): void {
    this.state.sizeBytes = bytes;
  }

  authorized(authorizationId: string): void {
    this.state.authorizationId = authorizationId;
  }

  /** The answer must also wait for this write (an authorization whose write the action overlapped). */
  answerAfter(write: Promise<void>): void {
    this.writes.push(write.then(() => ({}), (failure: unknown) => ({ failure })));
  }

  /** Resolves once every write the answer waits for is done, with the first failure if any. */
  async writesDone(): Promise<{ failure?: unknown }> {
    for (const outcome of await Promise.all(this.writes)) if (outcome.failure !== undefined) return outcome;
    return {};
  }

  /** A copy of the facts so far. */
  facts(): AuditFacts {
    return withFields(this.state, { native: this.state.native && { ...this.state.native } });
  }
}

/** What the metrics count of a call that ended with `errorCode` (or ok): catalog names only. */
export function callEndingOf(facts: AuditFacts, errorCode?: string): CallEnding {
  return {
    sourceId: facts.tool?.sourceId ?? facts.native?.sourceId ?? null,
    toolId: facts.tool?.toolId ?? facts.native?.toolId ?? null,
    outcome: errorCode ?? 'ok',
    queueWaitMs: facts.queued ? facts.queueWaitMs : null,
    cache: facts.cacheHit ? 'hit' : facts.cacheMiss ? 'miss' : null,
  };
}
