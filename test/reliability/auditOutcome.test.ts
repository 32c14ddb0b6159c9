import { describe, expect, it } from 'vitest';
import { GatewayError, SecretScrubber, silentLogger, type InvocationIntent, type InvocationRecord } from '../../gateway/core/index.js';
import { withAudit, type AuditedRequest, type Handler } from '../../gateway/broker/index.js';
import { noopMetrics } from '../../gateway/metrics/index.js';
import { FakeClock, MemoryInvocations, arxivResult, newRequest, rawOf, searchTool } from '../fixtures/brokerDoubles.js';

/** An invocation store whose disk refuses the first `failures` intents, and every completion if `refuseCompletions`. */
class RefusingInvocations extends MemoryInvocations {
  constructor(private failures: number, private readonly refuseCompletions = false) {
    super();
  }
  override async begin(intent: InvocationIntent, bytes: Uint8Array) {
    if (this.failures-- > 0) throw new GatewayError('storage_unavailable', 'journal refused', { retryable: true });
    return super.begin(intent, bytes);
  }
  override async complete(row: InvocationRecord, bytes: Uint8Array | null) {
    if (this.refuseCompletions) throw new GatewayError('storage_unavailable', 'journal refused', { retryable: true });
    return super.complete(row, bytes);
  }
}

/** An invocation store whose intents become durable only when the test says so. */
class SlowSyncInvocations extends MemoryInvocations {
  private readonly waiting: Array<() => void> = [];
  override async begin(intent: InvocationIntent, bytes: Uint8Array) {
    const stored = super.begin(intent, bytes);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return stored;
  }
  syncAll(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

// Both resolve the (idempotent) arXiv search first, as withResolve would.
const succeeds: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  call.trail.attempted();
  return { raw: rawOf(arxivResult()), result: arxivResult() };
};
const upstreamFails: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  call.trail.attempted();
  throw new GatewayError('upstream_error', 'bad gateway');
};
/** Refused before any upstream attempt, as withValidation refuses bad arguments. */
const refusedBeforeUpstream: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  throw new GatewayError('invalid_input', 'query: required');
};
const cacheHit: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  call.trail.cacheHit();
  return { raw: rawOf(arxivResult()), result: arxivResult() };
};

const depsOf = (invocations: MemoryInvocations) => ({ invocations, clock: new FakeClock(), log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics });

/** What the client is answered: the outcome's status, or the code of the error thrown. */
async function answered(handler: Handler<AuditedRequest>, invocations: MemoryInvocations, invocationId: string): Promise<string> {
  return withAudit(depsOf(invocations))(handler)(newRequest({ invocationId })).then(
    () => 'ok',
    (error: GatewayError) => error.code,
  );
}

describe('the audit never records an outcome the client did not receive', () => {
  it('a call whose intent cannot be stored is answered storage_unavailable (structured, never internal); with nothing stored, no row', async () => {
    const invocations = new RefusingInvocations(Number.POSITIVE_INFINITY, true);
    for (const [i, handler] of [succeeds, upstreamFails].entries()) {
      expect(await answered(handler, invocations, `inv_${i}`)).toBe('storage_unavailable');
    }
    const error = await withAudit(depsOf(invocations))(succeeds)(newRequest()).catch((e) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.toJSON()).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect(invocations.rows).toEqual([]);
  });

  it('a refused intent\'s row, if the store takes it, says storage_unavailable (what the client heard), never ok', async () => {
    const invocations = new RefusingInvocations(1);
    expect(await answered(succeeds, invocations, 'inv_refused')).toBe('storage_unavailable');
    expect(await answered(succeeds, invocations, 'inv_ok')).toBe('ok');
    expect(invocations.rows.map((r) => [r.id, r.status, r.errorCode])).toEqual([['inv_refused', 'error', 'storage_unavailable'], ['inv_ok', 'ok', null]]);
    const stored = JSON.parse(invocations.cas.blobs.get(invocations.rows[0]!.casHash!)!.toString());
    expect(stored.error).toMatchObject({ code: 'storage_unavailable', retryable: true });
  });
});

describe('a call that acted on nothing while the store refuses writes', () => {
  /** What one stage answers, as in the broker: one stage for all calls, which remembers that the store's last write failed. */
  function answersOf(invocations: MemoryInvocations) {
    const stage = withAudit(depsOf(invocations));
    return (handler: Handler<AuditedRequest>, invocationId: string) =>
      stage(handler)(newRequest({ invocationId })).then(() => 'ok', (error: GatewayError) => error.code);
  }

  it('after a refused write, a hit waits for its own intent too: refused while the store refuses, answered once it takes writes again', async () => {
    const answer = answersOf(new RefusingInvocations(2));
    expect(await answer(succeeds, 'inv_refused')).toBe('storage_unavailable');
    expect(await answer(cacheHit, 'inv_hit_refused')).toBe('storage_unavailable');
    expect(await answer(cacheHit, 'inv_hit_stored')).toBe('ok');
  });

  it('so does a call refused before any upstream attempt', async () => {
    const answer = answersOf(new RefusingInvocations(2));
    expect(await answer(succeeds, 'inv_refused')).toBe('storage_unavailable');
    expect(await answer(refusedBeforeUpstream, 'inv_invalid_refused')).toBe('storage_unavailable');
    expect(await answer(refusedBeforeUpstream, 'inv_invalid_stored')).toBe('invalid_input');
  });
});

/** `handler`'s call is not answered while its intent is not durable (50 ms on), then answered `code`. */
async function expectHeldUntilSynced(handler: Handler<AuditedRequest>, invocations: SlowSyncInvocations, invocationId: string, code: string): Promise<void> {
  let settled = false;
  const call = answered(handler, invocations, invocationId).finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(settled).toBe(false);
  invocations.syncAll();
  expect(await call).toBe(code);
}

describe('no upstream result reaches the client before its intent is durable', () => {
  it('a call that reached the upstream waits for its intent; its completion is recorded once the answer goes out', async () => {
    const invocations = new SlowSyncInvocations();
    // The upstream has answered (the handler resolves at once); the intent is not durable yet.
    await expectHeldUntilSynced(succeeds, invocations, 'inv_slow', 'ok');
    expect(invocations.rows.map((r) => [r.id, r.status, r.attempts])).toEqual([['inv_slow', 'ok', 1]]);
  });

  it('a cache hit, which reached no upstream, is answered before its intent is durable', async () => {
    const invocations = new SlowSyncInvocations();
    expect(await answered(cacheHit, invocations, 'inv_hit')).toBe('ok');
    expect(invocations.rows.map((r) => [r.id, r.status, r.cacheHit])).toEqual([['inv_hit', 'ok', true]]);
    invocations.syncAll();
  });

  it('so is a call refused before any upstream attempt; one that failed at its upstream waits', async () => {
    const invocations = new SlowSyncInvocations();
    const stillWaiting = new Promise((resolve) => setTimeout(() => resolve('still waiting for the intent'), 2000));
    expect(await Promise.race([answered(refusedBeforeUpstream, invocations, 'inv_invalid'), stillWaiting])).toBe('invalid_input');
    expect(invocations.rows.map((r) => [r.id, r.errorCode, r.attempts])).toEqual([['inv_invalid', 'invalid_input', 0]]);
    await expectHeldUntilSynced(upstreamFails, invocations, 'inv_upstream', 'upstream_error');
  });

  it("a refusal of one of the gateway's own tools (artifact_download, paper_extract_pdf) waits: its work is no upstream attempt", async () => {
    const nativeRefusal: Handler<AuditedRequest> = async (call) => {
      call.trail.native('artifact_download');
      throw new GatewayError('not_found', 'no such candidate');
    };
    await expectHeldUntilSynced(nativeRefusal, new SlowSyncInvocations(), 'inv_native', 'not_found');
  });
});

describe('an authorization whose write the action overlapped', () => {
  /** A handler that, like withPermission under always_allow, hands the answer an authorization write. */
  const authorizedBy = (write: Promise<void>): Handler<AuditedRequest> => async (call) => {
    call.trail.resolved(searchTool);
    call.trail.authorized('pauth_1');
    call.trail.answerAfter(write);
    call.trail.attempted();
    return { raw: rawOf(arxivResult()), result: arxivResult() };
  };

  it('holds the answer until that write is durable too, not only the intent', async () => {
    let durable!: () => void;
    const write = new Promise<void>((resolve) => (durable = resolve));
    let settled = false;
    const call = answered(authorizedBy(write), new MemoryInvocations(), 'inv_authorized').finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    durable();
    expect(await call).toBe('ok');
  });

  it('answers storage_unavailable when that write fails, and the row says so', async () => {
    const invocations = new MemoryInvocations();
    const refused = Promise.reject(new GatewayError('storage_unavailable', 'journal refused', { retryable: true }));
    expect(await answered(authorizedBy(refused), invocations, 'inv_unauthorized')).toBe('storage_unavailable');
    expect(invocations.rows.map((r) => [r.id, r.errorCode, r.authorizationId])).toEqual([['inv_unauthorized', 'storage_unavailable', 'pauth_1']]);
  });
});


describe('the intent is urged when the call acts', () => {
  /** A store that notes each urge among the handler's own events. */
  const noting = (events: string[]) => new (class extends MemoryInvocations {
    urge() {
      events.push('urge');
    }
  })();

  it('at its first upstream attempt, before the upstream is called, and again when the answer waits for it', async () => {
    const events: string[] = [];
    const retried: Handler<AuditedRequest> = async (call) => {
      call.trail.resolved(searchTool);
      for (const attempt of [1, 2]) {
        call.trail.attempted();
        events.push(`upstream called (${attempt})`);
      }
      return { raw: rawOf(arxivResult()), result: arxivResult() };
    };
    expect(await answered(retried, noting(events), 'inv_acts')).toBe('ok');
    expect(events).toEqual(['urge', 'upstream called (1)', 'upstream called (2)', 'urge']);
  });

  it("when a native tool starts; never for a cache hit or a refusal, whose intents wait for company", async () => {
    const events: string[] = [];
    const native: Handler<AuditedRequest> = async (call) => {
      call.trail.native('paper_extract_pdf');
      events.push('extraction started');
      return { raw: rawOf(arxivResult()), result: arxivResult() };
    };
    expect(await answered(native, noting(events), 'inv_native_acts')).toBe('ok');
    expect(events).toEqual(['urge', 'extraction started', 'urge']);
    events.length = 0;
    expect(await answered(cacheHit, noting(events), 'inv_hit_quiet')).toBe('ok');
    expect(await answered(refusedBeforeUpstream, noting(events), 'inv_refused_quiet')).toBe('invalid_input');
    expect(events).toEqual([]);
  });
});
