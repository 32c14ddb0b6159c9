import { describe, expect, it } from 'vitest';
import { GatewayError, SecretScrubber, silentLogger } from '../../gateway/core/index.js';
import { withAudit, type AuditedRequest, type Handler } from '../../gateway/broker/index.js';
import { noopMetrics } from '../../gateway/metrics/index.js';
import { FakeClock, MemoryCas, MemoryInvocations, arxivResult, newRequest, rawOf, searchTool } from '../fixtures/brokerDoubles.js';

/** A CAS whose disk is full: every put fails as the file system would. */
class FullCas extends MemoryCas {
  override async put(): Promise<string> {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  }
}

/** An invocation store whose journal refuses the first `failures` rows. */
class RefusingInvocations extends MemoryInvocations {
  constructor(private failures: number) {
    super();
  }
  override async record(row: Parameters<MemoryInvocations['record']>[0]) {
    if (this.failures-- > 0) throw new GatewayError('storage_unavailable', 'journal refused', { retryable: true });
    return super.record(row);
  }
}

// Both resolve the (idempotent) arXiv search first, as withResolve would.
const succeeds: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  return { raw: rawOf(arxivResult()), result: arxivResult() };
};
const upstreamFails: Handler<AuditedRequest> = async (call) => {
  call.trail.resolved(searchTool);
  throw new GatewayError('upstream_error', 'bad gateway');
};

/** What the client is answered: the outcome's status, or the code of the error thrown. */
async function answered(handler: Handler<AuditedRequest>, deps: Parameters<typeof withAudit>[0], invocationId: string): Promise<string> {
  return withAudit(deps)(handler)(newRequest({ invocationId })).then(
    () => 'ok',
    (error: GatewayError) => error.code,
  );
}

describe('the audit never records an outcome the client did not receive', () => {
  it('a result whose blobs cannot be stored is answered storage_unavailable, and no row says ok', async () => {
    const invocations = new MemoryInvocations();
    const deps = { invocations, cas: new FullCas(), clock: new FakeClock(), log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics };
    for (const [i, handler] of [succeeds, upstreamFails].entries()) {
      const code = await answered(handler, deps, `inv_${i}`);
      expect(code).toBe('storage_unavailable');
      // Nothing could be stored: no row at all rather than one claiming another outcome.
      expect(invocations.rows.filter((r) => r.id === `inv_${i}`)).toEqual([]);
    }
  });

  it('a row the journal refuses is answered storage_unavailable, and that is what the audit then holds', async () => {
    const invocations = new RefusingInvocations(1);
    const cas = new MemoryCas();
    const code = await answered(succeeds, { invocations, cas, clock: new FakeClock(), log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics }, 'inv_r');
    expect(code).toBe('storage_unavailable');
    expect(invocations.rows.map((r) => [r.id, r.status, r.errorCode])).toEqual([['inv_r', 'error', 'storage_unavailable']]);
    const stored = JSON.parse(cas.blobs.get(invocations.rows[0]!.casHash!)!.toString());
    expect(stored.error).toMatchObject({ code: 'storage_unavailable', retryable: true });
  });

  it('when nothing at all can be stored the client still gets a structured storage_unavailable, never internal', async () => {
    const invocations = new RefusingInvocations(Number.POSITIVE_INFINITY);
    const error = await withAudit({ invocations, cas: new FullCas(), clock: new FakeClock(), log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics })(succeeds)(newRequest()).catch((e) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.toJSON()).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect(invocations.rows).toEqual([]);
  });
});
