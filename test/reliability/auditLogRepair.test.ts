import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex, type InvocationRecord } from '../../gateway/core/index.js';
import { AuditLog } from '../../storage/audit/auditLog.js';
import { segmentPath } from '../../storage/audit/segmentFiles.js';
import { capFileSize, recordingLogger } from './storageFaults.js';

let dir: string;
afterEach(async () => {
  capFileSize(process.pid, undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const encoder = new TextEncoder();

function row(id: string, overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    id, sessionId: 'ses_1', projectId: 'default', sourceId: 'arxiv', toolId: 'search', toolName: 'mcp__arxiv__search', origin: 'agent', status: 'ok',
    errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0, durationMs: 3, sizeBytes: 10, casHash: sha256Hex(encoder.encode(`{"r":"${id}"}`)),
    argumentsHash: sha256Hex(encoder.encode(`{"a":"${id}"}`)), authorizationId: null, startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:00.003Z',
    ...overrides,
  };
}

const intentOf = (r: InvocationRecord) => ({ id: r.id, sessionId: r.sessionId, projectId: r.projectId, toolName: r.toolName, origin: r.origin, argumentsHash: r.argumentsHash, startedAt: r.startedAt });

/** A call as withAudit makes it: the intent, then (not awaited) the row of what the client was answered. */
async function governedCall(log: AuditLog, id: string): Promise<'ok' | 'storage_unavailable'> {
  const ok = row(id);
  try {
    await log.begin(intentOf(ok), encoder.encode(`{"a":"${id}"}`));
  } catch (error) {
    expect(error).toMatchObject({ code: 'storage_unavailable', retryable: true });
    log.complete(row(id, { status: 'error', errorCode: 'storage_unavailable', retryable: true }), encoder.encode('{"error":{}}')).catch(() => {});
    return 'storage_unavailable';
  }
  log.complete(ok, encoder.encode(`{"r":"${id}"}`)).catch(() => {});
  return 'ok';
}

describe('the audit log on a full disk', () => {
  it('refuses intents with storage_unavailable, keeps the rows of calls already answered, and writes them once space is back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-audit-full-'));
    const { log: logger, warnings } = recordingLogger();
    const log = await AuditLog.open({ dir, log: logger });
    expect(await governedCall(log, 'inv_first')).toBe('ok');
    await expect.poll(() => log.get('inv_first')).toMatchObject({ status: 'ok' });
    // The lines' length: the zeros of the segment's reserve after them do not count.
    const bytes = (await readFile(segmentPath(dir, 1))).lastIndexOf(0x0a) + 1;
    // Room for about one more call, then EFBIG mid-line, as on ENOSPC. The log is not closed: kill -9.
    capFileSize(process.pid, bytes * 2 + 100);
    const answers = new Map<string, string>();
    for (let round = 0; round < 4; round++) {
      const ids = [0, 1, 2].map((i) => `inv_${round}_${i}`);
      const codes = await Promise.all(ids.map((id) => governedCall(log, id)));
      ids.forEach((id, i) => answers.set(id, codes[i]!));
    }
    expect([...answers.values()]).toContain('storage_unavailable');
    // What the clients were answered is what reads show, durable or not yet.
    for (const [id, code] of answers) expect((await log.get(id))?.errorCode ?? 'ok').toBe(code);

    capFileSize(process.pid, undefined);
    // The next call repairs the log; the kept rows go first, so once its completion is durable they are too.
    const after = row('inv_after');
    await log.begin(intentOf(after), encoder.encode('{"a":"inv_after"}'));
    await log.complete(after, encoder.encode('{"r":"inv_after"}'));
    expect(warnings.map((w) => w.msg)).toContain('audit log repaired; writes accepted again');

    const reopened = await AuditLog.open({ dir, log: logger });
    expect(await reopened.interruptUnfinished('2026-12-01T00:01:00.000Z')).toBe(0);
    for (const [id, code] of answers) {
      const stored = await reopened.get(id);
      if (code === 'ok') expect(stored?.status, id).toBe('ok');
      else if (stored) expect(stored.errorCode, id).toBe('storage_unavailable');
    }
    expect((await reopened.get('inv_after'))?.status).toBe('ok');
    await reopened.close();
    await log.close();
  });
});
