import {
  GatewayError, cancelledBy, requireSession, withFields, type CallDeadline, type Clock, type EventHub, type GatewayEvent, type Logger,
  type NewId, type PermissionAuthorizationRecord, type PermissionChannel, type PermissionDecision, type PermissionGrantRecord,
  type PermissionRequestRecord, type PermissionRequestStatus, type PermissionStore,
  type SecretScrubber, type SessionRecord, type SessionStore, type ApprovalMode, type InvocationOrigin,
} from '../core/index.js';
import { askWhileOpen, type ClientApprover } from './clientApproval.js';
import type { DangerousAction } from './dangerousActions.js';
import { DecisionWrites } from './decisionWrites.js';
import { finishWaiters, type Resolved } from './finishWaiters.js';
import { PendingRequests, type Waiter } from './pendingRequests.js';
import { newPermissionRequest, sameAction } from './permissionRecords.js';
import { ReleasesInFlight } from './releasesInFlight.js';
import { alreadyDecided, releaseFor, storedOutcome } from './replicaDecisions.js';
import { dismissedWithNobodyElse, expiredUnanswered, failedWithNobodyElse, nobodyToAsk, unrecordedWithNobodyElse } from './unansweredErrors.js';

/** How long a request waits for a decision before it expires (`permission_expired`), unless configured. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 15 * 60_000;

export interface PermissionGateDeps {
  sessions: SessionStore;
  store: PermissionStore;
  events: EventHub;
  clock: Clock;
  newId: NewId;
  log: Logger;
  /** Configured secrets, kept out of a request's argument preview (an agent may pass one along). */
  secrets: Pick<SecretScrubber, 'scrub'>;
  /** Longest wait for a human decision, in ms (default 15 minutes). */
  approvalTimeoutMs?: number;
  /**
   * Whether a human can decide through the admin API (default true). `scigate stdio` without
   * --admin-port has none: an action whose client cannot be asked either is refused at once.
   */
  adminApproval?: boolean;
}

/** One dangerous action that needs an authorization before it may run. */
export interface AuthorizeInput {
  sessionId: string;
  /**
   * The Session as the call read it when it arrived (the broker's calls carry one), so a call that
   * is decided at once reads no Session here; an action about to wait for a human reads it again.
   */
  session?: SessionRecord;
  invocationId: string;
  toolName: string;
  action: DangerousAction;
  arguments: unknown;
  /** An Inspector call is an explicit admin action on one tool: it is its own allow_once. */
  origin?: InvocationOrigin;
  /** The call's signal: a client cancellation or session end cancels the request. */
  signal: AbortSignal;
  /** Held while a human decides, so the wait is never charged to the tool's timeout. */
  deadline?: CallDeadline;
  /** Also asks inside the agent's client (elicitation); the first decision from either place wins. */
  askClient?: ClientApprover;
  /** Called once when the action starts to wait for a human; `waitEnded` aborts when the wait is over. */
  onWaiting?: (request: PermissionRequestRecord, waitEnded: AbortSignal) => void;
  /**
   * For a caller whose answer waits for this write instead of its action (the broker: the answer
   * waits for the call's intent anyway, docs/storage.md): an authorization made without asking
   * anyone (always_allow, a Grant, the Inspector) is returned at once and its write handed here, so
   * the action overlaps it. Without it, `authorize` resolves once the authorization is durable.
   */
  onDurable?: (write: Promise<void>) => void;
}

/**
 * Decides dangerous actions (seed §8): always_allow authorizes at once, a Grant authorizes at
 * once, otherwise one PermissionRequest per action waits for allow_once / allow_matching / deny
 * from the admin API or the agent's client. Every allow, deny or Grant hit appends exactly one
 * single-use PermissionAuthorization.
 */
export class PermissionGate {
  private readonly pending = new PendingRequests();
  private readonly writes: DecisionWrites;
  private readonly releasing = new ReleasesInFlight();
  private readonly approvalTimeoutMs: number;
  /**
   * Bumped in the tick that a mode switch or an allow_matching claims the waiting actions. An
   * `authorize` that read the Session or looked for a Grant before such a tick reads again, so an
   * action never starts to wait after the change that would have released it.
   */
  private releases = 0;

  constructor(private readonly deps: PermissionGateDeps) {
    this.approvalTimeoutMs = deps.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.writes = new DecisionWrites(deps);
    if (!Number.isInteger(this.approvalTimeoutMs) || this.approvalTimeoutMs < 1) {
      throw new Error('createPermissionGate: approvalTimeoutMs must be a positive integer (milliseconds)');
    }
    deps.events.subscribe((event) => {
      if (!event.replica) return;
      this.followReplica(event).catch((error: unknown) => deps.log.warn({ err: error, type: event.type }, 'could not apply another replica\'s permission event'));
    });
  }

  /** Resolves with an allowing or denying authorization; rejects with `permission_expired` or `cancelled`. */
  async authorize(input: AuthorizeInput): Promise<PermissionAuthorizationRecord> {
    const releasesBefore = this.releases;
    const session = input.session ?? (await requireSession(this.deps.sessions, input.sessionId));
    const base = { subject: withFields(input, input.action), requestId: null, epoch: session.permissionEpoch };
    if (input.origin === 'inspector') return this.writes.append(withFields(base, { basis: 'allow_once', via: 'inspector' } as const), input.onDurable);
    if (session.approvalMode === 'always_allow') return this.writes.append(withFields(base, { basis: 'always_allow', via: 'mode' } as const), input.onDurable);
    const grant = await this.deps.store.findGrant(session.id, input.action.action, input.action.resource);
    if (grant) return this.writes.append(withFields(base, { basis: 'grant', via: 'grant', grantId: grant.id } as const), input.onDurable);
    if (input.signal.aborted) throw cancelledBy(input.signal);
    // The call's own copy of the Session may predate a mode switch that would release it: read it now.
    if (input.session) return this.authorize({ ...input, session: undefined });
    // Each retry needs another release meanwhile, so this ends as soon as releases stop.
    if (this.releases !== releasesBefore) return this.authorize(input);
    const releasing = this.releasing.settled(session.id);
    // A release being written (a mode switch, an allow_matching Grant) may make the wait unnecessary.
    if (releasing) return releasing.then(() => this.authorize(input));
    if (!input.askClient && this.deps.adminApproval === false) throw nobodyToAsk(input);
    return this.waitForHuman(input, session);
  }

  /** A human's decision; 409 when the request is no longer pending or the epoch is stale. */
  async decide(
    requestId: string,
    decision: PermissionDecision,
    options: { via: PermissionChannel; epoch?: number },
  ): Promise<PermissionRequestRecord> {
    const request = await this.deps.store.getRequest(requestId);
    if (!request) throw new GatewayError('not_found', `No permission request ${requestId.slice(0, 80)}.`);
    const epoch = (await requireSession(this.deps.sessions, request.sessionId)).permissionEpoch;
    const stale = [options.epoch, request.epoch].find((e) => e !== undefined && e !== epoch);
    if (stale !== undefined) {
      throw new GatewayError('conflict', `This decision is for permission epoch ${stale}; the session is at epoch ${epoch}. Reload the requests.`, {
        details: { epoch, status: request.status },
      });
    }
    const waiter = request.status === 'pending' ? this.pending.claim(requestId) : undefined;
    // Pending but not waiting here: with replicas, its action waits on another one (or is ending here).
    if (!waiter && request.status === 'pending' && this.deps.events.relayed) return this.decideForReplica(request, decision, options.via, epoch);
    if (!waiter) throw alreadyDecided(request, epoch);
    if (decision === 'allow_matching') {
      // Claimed in the same tick as the decided request: all matching actions are released together.
      const others = this.pending.claimWhere((r) => sameAction(r, request));
      this.releases += 1;
      await this.releasing.track(request.sessionId, this.allowMatching(waiter, others, options.via, epoch));
    } else await this.resolveClaimed([waiter], async () => [await this.writes.one(waiter, decision, options.via, epoch)]);
    return (await this.deps.store.getRequest(requestId))!;
  }

  /** Sets the Session's mode; a change rotates the epoch, and always_allow wakes every pending action. */
  async setApprovalMode(sessionId: string, mode: ApprovalMode): Promise<SessionRecord> {
    const session = await requireSession(this.deps.sessions, sessionId);
    if (session.approvalMode === mode) return session;
    // Claimed before anything is written, so no decision for the old epoch slips in between.
    const woken = mode === 'always_allow' ? this.pending.claimWhere((r) => r.sessionId === sessionId) : [];
    this.releases += 1;
    return this.releasing.track(sessionId, this.switchMode(session, mode, woken));
  }

  /**
   * The released actions' authorizations are written before the mode, the switch's commit point: a
   * write that fails before it leaves the Session asking and its actions waiting, unclaimed, with
   * their epoch, so they can be decided. Once the mode is stored nobody can decide them (their epoch
   * is past), so they are released even when their requests cannot be resolved (orphaned at the next start).
   */
  private async switchMode(session: SessionRecord, mode: ApprovalMode, woken: Waiter[]): Promise<SessionRecord> {
    // The epoch the switch rotates to: the store adds one.
    const authorize = { basis: 'always_allow', via: 'mode', epoch: session.permissionEpoch + 1 } as const;
    const resolved = await this.writes.each(woken, authorize).catch((error: unknown) => this.unclaim(woken, error));
    const updated = await this.deps.sessions.setApprovalMode(session.id, mode).catch((error: unknown) => this.unclaim(woken, error));
    this.deps.events.publish('session.updated', session.id, updated);
    await finishWaiters(this.deps, resolved, { settleAllowed: true }).catch((error: unknown) =>
      this.deps.log.warn({ err: error, sessionId: session.id }, 'actions released by a switch to always_allow ran, but their requests could not be marked allowed'),
    );
    return updated;
  }

  /** Cancels every pending request of a Session (its MCP session closed); resolves with how many. */
  async cancelSession(sessionId: string): Promise<number> {
    const waiters = this.pending.claimWhere((r) => r.sessionId === sessionId);
    const error = new GatewayError('cancelled', 'The MCP session closed while the action waited for permission.');
    await finishWaiters(this.deps, waiters.map((w): Resolved => [w, this.writes.resolution('cancelled', null, 'session_end'), { error }]));
    return waiters.length;
  }

  /** Revokes a Grant: later matching actions ask again. Revoking twice is harmless. */
  async revokeGrant(grantId: string): Promise<PermissionGrantRecord> {
    const grant = await this.deps.store.getGrant(grantId);
    if (!grant) throw new GatewayError('not_found', `No grant ${grantId.slice(0, 80)}.`);
    const revoked = await this.deps.store.revokeGrant(grantId, this.nowIso());
    const current = (await this.deps.store.getGrant(grantId))!;
    if (revoked) this.deps.events.publish('grant.revoked', grant.sessionId, current);
    return current;
  }

  /**
   * Marks requests left pending by a crash as orphaned: at start-up, and on a shared store whenever a
   * replica's heartbeat stops. With `alive` (replica ids), only the requests of the replicas not in it.
   */
  async orphanPending(alive?: readonly string[]): Promise<number> {
    const count = await this.deps.store.orphanPending(this.nowIso(), alive);
    if (count > 0) this.deps.log.warn({ count }, 'permission requests left pending by an earlier run were marked orphaned');
    return count;
  }

  listRequests(sessionId: string, status?: PermissionRequestStatus): Promise<PermissionRequestRecord[]> {
    return this.deps.store.listRequests(sessionId, status ? { status } : {});
  }

  listGrants(sessionId: string): Promise<PermissionGrantRecord[]> {
    return this.deps.store.listGrants(sessionId);
  }

  listAuthorizations(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    return this.deps.store.listAuthorizations(sessionId);
  }

  private async waitForHuman(input: AuthorizeInput, session: SessionRecord): Promise<PermissionAuthorizationRecord> {
    const request = newPermissionRequest({
      ...input, id: this.deps.newId('preq'), session, nowMs: this.deps.clock.now(), approvalTimeoutMs: this.approvalTimeoutMs,
      scrub: (text) => this.deps.secrets.scrub(text),
    });
    // Registered before the first await: a concurrent allow_matching or mode switch sees it.
    const waiter = this.pending.add(request);
    const release = input.deadline?.beginExternalWait();
    const stop = new AbortController();
    try {
      const written = this.deps.store.addRequest(request);
      this.watch(waiter, input, stop.signal);
      await written.catch((error: unknown) => {
        this.pending.drop(request.id);
        throw error;
      });
      // Announced once stored: one the store refused is never shown (or counted) as pending anywhere.
      this.deps.events.publish('permission_request.created', session.id, request);
      input.onWaiting?.(request, stop.signal);
      const outcome = await waiter.outcome;
      if ('error' in outcome) throw outcome.error;
      return outcome.authorization;
    } finally {
      stop.abort();
      release?.();
    }
  }

  /** The three other ways a wait ends: approval timeout, cancellation, and the client's own answer. */
  private watch(waiter: Waiter, input: AuthorizeInput, stop: AbortSignal): void {
    const id = waiter.request.id;
    void this.deps.clock.sleep(this.approvalTimeoutMs, AbortSignal.any([stop, input.signal])).then(
      () => this.endUnanswered(id, 'expired', 'timeout', expiredUnanswered(input, id, this.approvalTimeoutMs)),
      () => {},
    );
    const onAbort = () => void this.endUnanswered(id, 'cancelled', 'client', cancelledBy(input.signal));
    if (input.signal.aborted) onAbort();
    else input.signal.addEventListener('abort', onAbort, { once: true, signal: stop });
    if (!input.askClient) return;
    void askWhileOpen(input.askClient, waiter.request, stop).then(
      (decision) => {
        if (decision) return this.decide(id, decision, { via: 'elicitation' }).catch((error: unknown) => this.unrecorded(id, input, error));
        // Dismissed: with an admin API the request waits for it (documented); without, nobody else can decide.
        if (this.deps.adminApproval === false) return this.endUnanswered(id, 'cancelled', 'elicitation', dismissedWithNobodyElse(input, id));
      },
      (error: unknown) => {
        if (stop.aborted) return;
        // Failed: as when dismissed, the admin API can still decide; without one, nobody can.
        if (this.deps.adminApproval === false) return this.endUnanswered(id, 'cancelled', 'elicitation', failedWithNobodyElse(input, id, error));
        this.deps.log.warn({ err: error, requestId: id }, 'asking in the client failed; the admin API can still decide');
      },
    );
  }

  /** The client's decision was not recorded: beaten by another (a conflict: nothing to do), or refused by the
   * store, when the request waits for the admin API, or ends at once where there is none. */
  private unrecorded(id: string, input: AuthorizeInput, error: unknown): Promise<void> | void {
    if (GatewayError.from(error).code === 'conflict') return;
    if (this.deps.adminApproval === false) return this.endUnanswered(id, 'cancelled', 'elicitation', unrecordedWithNobodyElse(input, id, error));
    this.deps.log.warn({ err: error, requestId: id }, "the client's decision could not be recorded; the request waits for the admin API");
  }

  private async endUnanswered(id: string, status: 'expired' | 'cancelled', via: PermissionChannel, error: GatewayError): Promise<void> {
    const waiter = this.pending.claim(id);
    if (!waiter) return;
    // The action ends (it never runs) even when the store cannot record how: the wait is not stranded.
    await finishWaiters(this.deps, [[waiter, this.writes.resolution(status, null, via), { error }]]).catch((failure: unknown) =>
      this.deps.log.warn({ err: failure, requestId: id }, 'could not record how an unanswered permission request ended; its action did not run'),
    );
  }

  /**
   * Resolves claimed waiters with what `resolve` writes first (authorizations, a Grant). When a write
   * fails before their requests are resolved (a full disk), they wait on, unclaimed, instead of
   * staying claimed by a decision that never finishes: the human can decide again, and the timeout
   * or a cancellation can still end them. See finishWaiters for a failure while resolving.
   */
  private async resolveClaimed(waiters: Waiter[], resolve: () => Promise<Resolved[]>): Promise<void> {
    const resolved = await resolve().catch((error: unknown) => this.unclaim(waiters, error));
    await finishWaiters(this.deps, resolved);
  }

  /**
   * allow_matching: its Grant is written after the authorizations and revoked when the decided request
   * is not resolved after all, so a failed decision leaves no Grant in force and deciding again makes
   * the only one. Announced (other replicas release on it) only once it stands.
   */
  private async allowMatching(first: Waiter, others: Waiter[], via: PermissionChannel, epoch: number): Promise<void> {
    const grant = this.writes.newGrant(first.request, epoch);
    let granted = false;
    const failed = await this.resolveClaimed([first, ...others], async () => {
      const resolved = await this.writes.allowMatching(first, others, via, grant);
      granted = true;
      return resolved;
    }).then(() => undefined, (error: unknown) => ({ error }));
    if (granted && (!failed || (await this.writes.keepGrantIfDecided(grant, this.deps.log)))) {
      this.deps.events.publish('grant.created', first.request.sessionId, grant);
    }
    if (failed) throw failed.error;
  }

  private unclaim(waiters: Waiter[], error: unknown): never {
    // A waiter that was settled has left the pending set already: unclaiming it changes nothing.
    for (const waiter of waiters) waiter.claimed = false;
    throw error;
  }

  /**
   * A decision for an action that waits on another replica: its authorization (and Grant) written
   * first, then the request resolved in the shared store (a conditional update, so a decision made
   * meanwhile elsewhere wins and this one is a 409), then announced; the waiting replica wakes on the
   * event and re-reads the store. Resolved last, so a write that fails leaves the request pending and
   * decidable, never allowed without a stored authorization. An authorization written for a decision
   * that then lost or failed is listed but named by no request or call (as on the local path); a Grant
   * so left behind is revoked, since matching actions would run on it.
   */
  private async decideForReplica(request: PermissionRequestRecord, decision: PermissionDecision, via: PermissionChannel, epoch: number) {
    const grant = decision === 'allow_matching' ? this.writes.newGrant(request, epoch) : undefined;
    const allowed = decision !== 'deny';
    const authorization = await this.writes.append({
      subject: request, requestId: request.id, epoch, basis: decision, via, allowed, ...(grant ? { grantId: grant.id } : {}),
    });
    const resolution = this.writes.resolution(allowed ? 'allowed' : 'denied', decision, via, authorization);
    const written = await (async () => {
      if (grant) await this.deps.store.addGrant(grant);
      return { won: await this.deps.store.resolveRequest(request.id, resolution) };
    })().catch((error: unknown) => ({ won: false, error }));
    if (!written.won) {
      if (grant) await this.writes.keepGrantIfDecided(grant, this.deps.log);
      if ('error' in written) throw written.error;
      throw alreadyDecided((await this.deps.store.getRequest(request.id))!, epoch);
    }
    const stored = (await this.deps.store.getRequest(request.id))!;
    this.deps.events.publish('permission_request.resolved', request.sessionId, stored);
    if (grant) {
      this.deps.events.publish('grant.created', request.sessionId, grant);
      await this.release({ matches: (r) => sameAction(r, request), basis: 'grant', via: 'grant', epoch, grantId: grant.id });
    }
    return stored;
  }

  /** Another replica's event: a decision for an action waiting here, a Grant, or a switch to always_allow. */
  private async followReplica(event: GatewayEvent): Promise<void> {
    if (event.type === 'permission_request.resolved') {
      const waiter = this.pending.claim((event.data as PermissionRequestRecord).id);
      if (!waiter) return;
      // Unclaimed again when the store still says pending (or cannot say): the timeout or a later decision ends it.
      const outcome = await storedOutcome(this.deps.store, waiter.request.id).catch((error: unknown) => {
        waiter.claimed = false;
        throw error;
      });
      if (outcome) waiter.settle(outcome);
      else waiter.claimed = false;
      return;
    }
    const release = releaseFor(event);
    if (release) await this.release(release);
  }

  /** Authorizes every waiting action here that `release` matches, as a Grant or a mode switch does. */
  private async release(release: NonNullable<ReturnType<typeof releaseFor>>): Promise<void> {
    const waiters = this.pending.claimWhere(release.matches);
    this.releases += 1;
    const { basis, via, epoch, grantId } = release;
    await this.resolveClaimed(waiters, () => this.writes.each(waiters, { basis, via, epoch, ...(grantId ? { grantId } : {}) }));
  }

  private nowIso(): string {
    return this.writes.nowIso();
  }
}

/** Creates the gate; `approvalTimeoutMs` is checked here. */
export function createPermissionGate(deps: PermissionGateDeps): PermissionGate {
  return new PermissionGate(deps);
}
