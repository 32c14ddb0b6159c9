import type { GovernedTool } from '../registry/index.js';

/** What the audit row says about how a call went, besides its result. */
export interface AuditFacts {
  tool: GovernedTool | null;
  attempts: number;
  cacheHit: boolean;
  queueWaitMs: number;
  sizeBytes: number | null;
  authorizationId: string | null;
}

/**
 * The one record of what happened to a call on its way through the broker. `withAudit` creates it
 * and is its only reader; every other stage only reports to it, so no stage depends on what another
 * stage wrote (a stage that needs a fact gets it from the outcome `next` returns).
 */
export class AuditTrail {
  private readonly state: AuditFacts = { tool: null, attempts: 0, cacheHit: false, queueWaitMs: 0, sizeBytes: null, authorizationId: null };

  resolved(tool: GovernedTool): void {
    this.state.tool = tool;
  }

  /** One attempt against the upstream started. */
  attempted(): void {
    this.state.attempts += 1;
  }

  queued(waitMs: number): void {
    this.state.queueWaitMs += waitMs;
  }

  cacheHit(): void {
    this.state.cacheHit = true;
  }

  sized(bytes: number): void {
    this.state.sizeBytes = bytes;
  }

  authorized(authorizationId: string): void {
    this.state.authorizationId = authorizationId;
  }

  /** A copy of the facts so far. */
  facts(): AuditFacts {
    return { ...this.state };
  }
}
