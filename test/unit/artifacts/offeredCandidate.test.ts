import { describe, expect, it } from 'vitest';
import { findOfferedCandidate } from '../../../gateway/artifacts/index.js';
import type { InvocationRecord } from '../../../gateway/core/index.js';
import type { SourceRegistry } from '../../../gateway/registry/index.js';
import { filesSource } from '../../fixtures/servers/filesSource.js';
import { MemoryInvocations, testSession } from '../../fixtures/brokerDoubles.js';

const source = filesSource();
const registry = { get: (id: string) => (id === 'files' ? { manifest: source.manifest } : undefined) } as unknown as SourceRegistry;

/** Stores an Invocation whose CAS result offers `candidate` for `record` (tampered results included). */
async function stored(candidate: Record<string, unknown>, overrides: Partial<InvocationRecord> = {}, recordId = 'a.pdf') {
  const invocations = new MemoryInvocations();
  const { cas } = invocations;
  const result = {
    sourceId: 'files', toolId: 'search', records: [{ id: `files:${recordId}`, sourceId: 'files', sourceRecordId: recordId }], artifacts: [candidate],
  };
  const bytes = new TextEncoder().encode(JSON.stringify(result));
  const casHash = await cas.put(bytes);
  await invocations.recorded({
    id: 'inv_1', sessionId: testSession.id, projectId: 'default', sourceId: 'files', toolId: 'search', toolName: 'mcp__files__search', origin: 'agent',
    status: 'ok', errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0, durationMs: 1, sizeBytes: 1, casHash, argumentsHash: null,
    authorizationId: null, startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:00.001Z', ...overrides,
  }, bytes);
  return { invocations, cas, registry };
}

describe('the candidate comes from the stored result and is re-checked', () => {
  const good = source.offer('a.pdf');

  it('finds a candidate the Invocation offered', async () => {
    const found = await findOfferedCandidate(await stored({ ...good }), testSession, 'inv_1', good.id);
    expect(found.candidate).toEqual(good);
  });

  it.each([
    ['a foreign source', { ...good, sourceId: 'arxiv' }, 'permission_denied'],
    ['a record the result does not hold', { ...good, sourceRecordId: 'other.pdf' }, 'permission_denied'],
    ['a host off the allow-list', { ...good, url: 'https://evil.example/a.pdf' }, 'permission_denied'],
    ['plain http', { ...good, url: 'http://files.example.org/a.pdf' }, 'permission_denied'],
    ['no license', { ...good, license: ' ' }, 'permission_denied'],
    ['an unsafe filename', { ...good, filename: '../a.pdf' }, 'permission_denied'],
  ])('refuses a stored candidate with %s', async (_label, candidate, code) => {
    await expect(findOfferedCandidate(await stored(candidate), testSession, 'inv_1', good.id)).rejects.toMatchObject({ code });
  });

  it('answers not_found for an unknown candidate, another Session\'s or a failed Invocation', async () => {
    await expect(findOfferedCandidate(await stored({ ...good }), testSession, 'inv_1', 'cand_x')).rejects.toMatchObject({ code: 'not_found' });
    await expect(findOfferedCandidate(await stored({ ...good }, { sessionId: 'ses_other' }), testSession, 'inv_1', good.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(findOfferedCandidate(await stored({ ...good }, { status: 'error' }), testSession, 'inv_1', good.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(findOfferedCandidate(await stored({ ...good }), testSession, 'inv_none', good.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
