import { describe, expect, it, vi } from 'vitest';
import { GatewayError, silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import type { Handler, ToolOutcome } from '../../../gateway/broker/index.js';
import { withAudit } from '../../../gateway/broker/stages/withAudit.js';
import { withResolve } from '../../../gateway/broker/stages/withResolve.js';
import { withValidation } from '../../../gateway/broker/stages/withValidation.js';
import { withSizeLimit } from '../../../gateway/broker/stages/withSizeLimit.js';
import { withNormalize } from '../../../gateway/broker/stages/withNormalize.js';
import {
  FakeClock, MemoryCas, MemoryInvocations, arxivResult, manifest, newToolCall, rawOf, testSession,
} from '../../fixtures/brokerDoubles.js';

const ok = (outcome: ToolOutcome): Handler => vi.fn(async () => outcome);
const fails = (error: unknown): Handler => vi.fn(async () => Promise.reject(error));

describe('withAudit', () => {
  const deps = () => ({ invocations: new MemoryInvocations(), cas: new MemoryCas(), clock: new FakeClock(), log: silentLogger });

  it('passes the outcome through and writes one ok row plus the result and arguments in the CAS', async () => {
    const d = deps();
    const outcome = { raw: rawOf(arxivResult()), result: arxivResult() };
    const upstream: Handler = async (call) => {
      call.audit.attempts += 1;
      return outcome;
    };
    expect(await withAudit(d)(upstream)(newToolCall())).toBe(outcome);
    expect(d.invocations.rows).toHaveLength(1);
    const row = d.invocations.rows[0]!;
    expect(row).toMatchObject({ status: 'ok', sourceId: 'arxiv', toolId: 'search', attempts: 1, errorCode: null });
    expect(JSON.parse(d.cas.blobs.get(row.casHash!)!.toString())).toEqual(arxivResult());
    expect(JSON.parse(d.cas.blobs.get(row.argumentsHash!)!.toString())).toEqual({ query: 'q' });
  });

  it('records a failure with its code and rethrows it as a GatewayError; unknown errors become internal', async () => {
    const d = deps();
    const error = new GatewayError('rate_limited', 'slow down', { retryable: true, retryAfterMs: 1000 });
    await expect(withAudit(d)(fails(error))(newToolCall())).rejects.toBe(error);
    await expect(withAudit(d)(fails(new Error('secret detail')))(newToolCall({ invocationId: 'inv_2' }))).rejects.toMatchObject({
      code: 'internal',
    });
    expect(d.invocations.rows.map((r) => [r.status, r.errorCode, r.retryable])).toEqual([
      ['error', 'rate_limited', true],
      ['error', 'internal', false],
    ]);
    const stored = d.cas.blobs.get(d.invocations.rows[1]!.casHash!)!.toString();
    expect(stored).not.toContain('secret detail');
  });

  it('a cancellation is recorded as cancelled, not as an error', async () => {
    const d = deps();
    await expect(withAudit(d)(fails(new GatewayError('cancelled', 'bye')))(newToolCall())).rejects.toMatchObject({ code: 'cancelled' });
    expect(d.invocations.rows[0]!.status).toBe('cancelled');
  });
});

describe('withResolve', () => {
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock: new FakeClock() });

  it('stops with tool_unavailable for an unknown tool and never calls next', async () => {
    const next = ok({ raw: rawOf({}) });
    await expect(withResolve(registry)(next)(newToolCall({ tool: undefined, toolName: 'mcp__x__y' }))).rejects.toMatchObject({
      code: 'tool_unavailable',
    });
    expect(next).not.toHaveBeenCalled();
  });

  it('stops when the source is outside the Session selection', async () => {
    const resolving = { ...registry, resolve: () => newToolCall().tool } as unknown as SourceRegistry;
    const next = ok({ raw: rawOf({}) });
    const call = newToolCall({ session: { ...testSession, connectors: ['pubmed'] } });
    await expect(withResolve(resolving)(next)(call)).rejects.toMatchObject({ code: 'tool_unavailable' });
    expect(next).not.toHaveBeenCalled();
    const allowed = newToolCall({ session: { ...testSession, connectors: ['arxiv'] } });
    await withResolve(resolving)(next)(allowed);
    expect(next).toHaveBeenCalledOnce();
  });
});

describe('withValidation', () => {
  it('passes valid arguments and stops invalid ones with invalid_input naming the field', async () => {
    const next = ok({ raw: rawOf({}) });
    await withValidation()(next)(newToolCall());
    expect(next).toHaveBeenCalledOnce();
    const stopped = ok({ raw: rawOf({}) });
    await expect(withValidation()(stopped)(newToolCall({ arguments: {} }))).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('query'),
    });
    expect(stopped).not.toHaveBeenCalled();
  });
});

describe('withSizeLimit', () => {
  const raw = rawOf({ text: 'x'.repeat(100) });
  const size = Buffer.byteLength(JSON.stringify({ content: raw.content, structuredContent: raw.structuredContent }));

  it('passes a result exactly at the limit and records its size', async () => {
    const call = newToolCall();
    await withSizeLimit({ maxBytesOf: () => size })(ok({ raw }))(call);
    expect(call.audit.sizeBytes).toBe(size);
  });

  it('refuses one byte over with response_too_large (not retryable)', async () => {
    await expect(withSizeLimit({ maxBytesOf: () => size - 1 })(ok({ raw }))(newToolCall())).rejects.toMatchObject({
      code: 'response_too_large',
      retryable: false,
    });
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const wide = rawOf({ text: 'é'.repeat(10) });
    const call = newToolCall();
    await withSizeLimit({ maxBytesOf: () => 10_000 })(ok({ raw: wide }))(call);
    expect(call.audit.sizeBytes).toBe(Buffer.byteLength(JSON.stringify({ content: wide.content, structuredContent: wide.structuredContent })));
  });
});

describe('withNormalize', () => {
  const stage = withNormalize({ manifestOf: () => manifest, clock: new FakeClock() });

  it('verifies a built-in envelope and forces untrusted: true', async () => {
    const out = await stage(ok({ raw: rawOf({ ...arxivResult(), untrusted: false }) }))(newToolCall());
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
    await expect(stage(ok({ raw: rawOf(arxivResult(override as never)) }))(newToolCall())).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('turns a source error result into its own classification', async () => {
    const raw = rawOf({ error: { code: 'rate_limited', message: 'slow', retryable: true, retryAfterMs: 3000 } }, true);
    await expect(stage(ok({ raw }))(newToolCall())).rejects.toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 3000 });
    const unknown = rawOf({ error: { code: 'weird', message: 'x' } }, true);
    await expect(stage(ok({ raw: unknown }))(newToolCall())).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('wraps a generic tool result as untrusted data with no records', async () => {
    const call = newToolCall({ tool: { ...newToolCall().tool!, envelope: 'generic' } });
    const out = await stage(ok({ raw: { content: [{ type: 'text', text: 'hello' }] } }))(call);
    expect(out.result).toMatchObject({ records: [], untrusted: true, data: { content: [{ type: 'text', text: 'hello' }] } });
  });
});
