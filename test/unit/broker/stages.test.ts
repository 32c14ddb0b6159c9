import { describe, expect, it, vi } from 'vitest';
import { GatewayError, SecretScrubber, silentLogger } from '../../../gateway/core/index.js';
import { noopMetrics } from '../../../gateway/metrics/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import {
  withAudit, withNormalize, withResolve, withSizeLimit, withValidation, type AuditedRequest, type Handler, type ResolvedCall,
  type ToolOutcome,
} from '../../../gateway/broker/index.js';
import {
  FakeClock, MemoryInvocations, arxivResult, manifest, newAuditedRequest, newRequest, newResolvedCall, rawOf,
} from '../../fixtures/brokerDoubles.js';

const ok = <Call = ResolvedCall>(outcome: ToolOutcome): Handler<Call> => vi.fn(async () => outcome);
const fails = (error: unknown): Handler<AuditedRequest> => vi.fn(async () => Promise.reject(error));

describe('withAudit', () => {
  const deps = () => {
    const invocations = new MemoryInvocations();
    return { invocations, cas: invocations.cas, clock: new FakeClock(), log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics };
  };

  it('passes the outcome through and writes one ok row plus the result and arguments in the CAS', async () => {
    const d = deps();
    const outcome = { raw: rawOf(arxivResult()), result: arxivResult() };
    const upstream: Handler<AuditedRequest> = async (call) => {
      call.trail.resolved(newResolvedCall().tool);
      call.trail.attempted();
      return outcome;
    };
    expect(await withAudit(d)(upstream)(newRequest())).toBe(outcome);
    expect(d.invocations.rows).toHaveLength(1);
    const row = d.invocations.rows[0]!;
    expect(row).toMatchObject({ status: 'ok', sourceId: 'arxiv', toolId: 'search', attempts: 1, errorCode: null });
    expect(JSON.parse(d.cas.blobs.get(row.casHash!)!.toString())).toEqual(arxivResult());
    expect(JSON.parse(d.cas.blobs.get(row.argumentsHash!)!.toString())).toEqual({ query: 'q' });
  });

  it('records a failure with its code and rethrows it as a GatewayError; unknown errors become internal', async () => {
    const d = deps();
    const error = new GatewayError('rate_limited', 'slow down', { retryable: true, retryAfterMs: 1000 });
    await expect(withAudit(d)(fails(error))(newRequest())).rejects.toBe(error);
    await expect(withAudit(d)(fails(new Error('secret detail')))(newRequest({ invocationId: 'inv_2' }))).rejects.toMatchObject({
      code: 'internal',
    });
    expect(d.invocations.rows.map((r) => [r.status, r.errorCode, r.retryable])).toEqual([
      ['error', 'rate_limited', true],
      ['error', 'internal', false],
    ]);
    const stored = d.cas.blobs.get(d.invocations.rows[1]!.casHash!)!.toString();
    expect(stored).not.toContain('secret detail');
  });

  it('an error quoting a configured secret is scrubbed in what is stored and what the caller gets', async () => {
    const d = deps();
    d.secrets.register('custom-1', () => ['Bearer tok-3f9a8e7d']);
    const echoed = new GatewayError('upstream_error', 'custom-1 answered: bad credentials Bearer tok-3f9a8e7d', { details: { header: 'Bearer tok-3f9a8e7d' } });
    const thrown = (await withAudit(d)(fails(echoed))(newRequest()).catch((e: unknown) => e)) as GatewayError;
    expect(thrown).toMatchObject({ code: 'upstream_error', message: 'custom-1 answered: bad credentials [redacted]' });
    const stored = d.cas.blobs.get(d.invocations.rows[0]!.casHash!)!.toString();
    expect(stored).toContain('[redacted]');
    expect(stored).not.toContain('tok-3f9a8e7d');
    expect(JSON.stringify(thrown.toJSON())).not.toContain('tok-3f9a8e7d');
  });

  it('a result echoing a secret is stored and returned scrubbed, its raw answer too', async () => {
    const d = deps();
    d.secrets.register('custom-1', () => ['key-"quoted"-77']);
    const leaky = arxivResult({ warnings: ['upstream said key-"quoted"-77'] });
    const outcome = await withAudit(d)(ok({ raw: rawOf(leaky), result: leaky }))(newRequest());
    expect(outcome.result!.warnings).toEqual(['upstream said [redacted]']);
    expect(JSON.stringify(outcome.raw)).not.toContain('quoted');
    expect(d.cas.blobs.get(d.invocations.rows[0]!.casHash!)!.toString()).not.toContain('quoted');
  });

  it('a cancellation is recorded as cancelled, not as an error', async () => {
    const d = deps();
    await expect(withAudit(d)(fails(new GatewayError('cancelled', 'bye')))(newRequest())).rejects.toMatchObject({ code: 'cancelled' });
    expect(d.invocations.rows[0]!.status).toBe('cancelled');
  });
});

describe('withResolve', () => {
  async function resolver(connectors: string[] | null) {
    const clock = new FakeClock();
    const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
    const entry = registry.add(manifest, newResolvedCall().client);
    entry.tools = [newResolvedCall().tool];
    registry.setEnabled('arxiv', true);
    const stage = withResolve({ registry, clock, connectors: { effective: async () => connectors, onChange: () => () => {} } });
    return { registry, stage, entry };
  }

  it('stops with tool_unavailable for an unknown tool and never calls next', async () => {
    const { stage } = await resolver(null);
    const next = ok({ raw: rawOf({}) });
    await expect(stage(next)(newAuditedRequest({ toolName: 'mcp__x__y' }))).rejects.toMatchObject({ code: 'tool_unavailable' });
    expect(next).not.toHaveBeenCalled();
  });

  it('stops when the source is outside the effective selection', async () => {
    const next = ok({ raw: rawOf({}) });
    await expect((await resolver(['pubmed'])).stage(next)(newAuditedRequest())).rejects.toMatchObject({ code: 'tool_unavailable' });
    expect(next).not.toHaveBeenCalled();
    await (await resolver(['arxiv'])).stage(next)(newAuditedRequest());
    expect(next).toHaveBeenCalledOnce();
  });

  it('hands on the tool, manifest and client captured once, and names the tool in the outcome', async () => {
    const { stage, entry } = await resolver(null);
    let seen: ResolvedCall | undefined;
    const outcome = await stage(async (call) => ((seen = call), { raw: rawOf({}) }))(newAuditedRequest());
    expect(seen).toMatchObject({ tool: { name: 'mcp__arxiv__search' }, manifest: entry.manifest, client: entry.client });
    expect(outcome.tool?.name).toBe('mcp__arxiv__search');
  });
});

describe('withValidation', () => {
  it('passes valid arguments and stops invalid ones with invalid_input naming the field', async () => {
    const next = ok({ raw: rawOf({}) });
    await withValidation()(next)(newResolvedCall());
    expect(next).toHaveBeenCalledOnce();
    const stopped = ok({ raw: rawOf({}) });
    await expect(withValidation()(stopped)(newResolvedCall({ arguments: {} }))).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('query'),
    });
    expect(stopped).not.toHaveBeenCalled();
  });
});

describe('withSizeLimit', () => {
  const raw = rawOf({ text: 'x'.repeat(100) });
  const size = Buffer.byteLength(JSON.stringify({ content: raw.content, structuredContent: raw.structuredContent }));
  const limitedTo = (maxResponseBytes: number) => newResolvedCall({ manifest: { ...manifest, limits: { ...manifest.limits, maxResponseBytes } } });

  it('passes a result exactly at the manifest limit and reports its size in the outcome and the trail', async () => {
    const call = limitedTo(size);
    const outcome = await withSizeLimit()(ok({ raw }))(call);
    expect(outcome.sizeBytes).toBe(size);
    expect(call.trail.facts().sizeBytes).toBe(size);
  });

  it('refuses one byte over with response_too_large (not retryable)', async () => {
    await expect(withSizeLimit()(ok({ raw }))(limitedTo(size - 1))).rejects.toMatchObject({ code: 'response_too_large', retryable: false });
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const wide = rawOf({ text: 'é'.repeat(10) });
    const outcome = await withSizeLimit()(ok({ raw: wide }))(limitedTo(10_000));
    expect(outcome.sizeBytes).toBe(Buffer.byteLength(JSON.stringify({ content: wide.content, structuredContent: wide.structuredContent })));
  });

  it("counts a custom tool's _meta, which the agent and the audit get with its content", async () => {
    const call = limitedTo(1000);
    const generic = { ...call, tool: { ...call.tool, envelope: 'generic' as const } };
    const padded = { content: [{ type: 'text' as const, text: 'small' }], _meta: { padding: 'x'.repeat(5000) } };
    await expect(withSizeLimit()(ok({ raw: padded }))(generic)).rejects.toMatchObject({ code: 'response_too_large' });
  });
});

describe('withNormalize', () => {
  const stage = withNormalize({ clock: new FakeClock() });

  it('verifies a built-in envelope and forces untrusted: true', async () => {
    const out = await stage(ok({ raw: rawOf({ ...arxivResult(), untrusted: false }) }))(newResolvedCall());
    expect(out.result?.untrusted).toBe(true);
  });

  it.each([
    ['a result from another source', { sourceId: 'pubmed' }],
    ['a result for another tool', { toolId: 'get' }],
    ['a forged record identity', { records: [{ ...arxivResult().records[0]!, sourceId: 'pubmed' }] }],
    ['a candidate on a foreign domain', { artifacts: [{ ...arxivResult().artifacts![0]!, url: 'https://evil.example/p.pdf' }] }],
    ['a plain-http candidate', { artifacts: [{ ...arxivResult().artifacts![0]!, url: 'http://arxiv.org/pdf/1' }] }],
    ['a result missing required fields', { records: undefined }],
  ])('refuses %s as upstream_error', async (_label, override) => {
    await expect(stage(ok({ raw: rawOf(arxivResult(override as never)) }))(newResolvedCall())).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('turns a source error result into its own classification', async () => {
    const raw = rawOf({ error: { code: 'rate_limited', message: 'slow', retryable: true, retryAfterMs: 3000 } }, true);
    await expect(stage(ok({ raw }))(newResolvedCall())).rejects.toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 3000 });
    const unknown = rawOf({ error: { code: 'weird', message: 'x' } }, true);
    await expect(stage(ok({ raw: unknown }))(newResolvedCall())).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('wraps a generic tool result as untrusted data with no records', async () => {
    const call = newResolvedCall({ tool: { ...newResolvedCall().tool, envelope: 'generic' } });
    const out = await stage(ok({ raw: { content: [{ type: 'text', text: 'hello' }] } }))(call);
    expect(out.result).toMatchObject({ records: [], untrusted: true, data: { content: [{ type: 'text', text: 'hello' }] } });
  });
});
