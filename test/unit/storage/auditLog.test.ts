import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex, silentLogger, type InvocationRecord, type PermissionAuthorizationRecord } from '../../../gateway/core/index.js';
import { AuditLog, type AuditLogOptions } from '../../../storage/audit/auditLog.js';
import { indexPath } from '../../../storage/audit/segmentFiles.js';

let dir: string;
const logs: AuditLog[] = [];
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openLog(options: Partial<AuditLogOptions> = {}): Promise<AuditLog> {
  dir ??= await mkdtemp(join(tmpdir(), 'scigate-audit-'));
  const log = await AuditLog.open({ dir, log: silentLogger, segmentRows: 10, ...options });
  logs.push(log);
  return log;
}

const encoder = new TextEncoder();
const at = (second: number) => new Date(Date.parse('2026-12-01T00:00:00.000Z') + second * 1000).toISOString();

function row(i: number, overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  const result = encoder.encode(`{"n":${i}}`);
  return {
    id: `inv_${String(i).padStart(3, '0')}`, sessionId: i % 2 === 0 ? 'ses_even' : 'ses_odd', projectId: 'default', sourceId: 'arxiv', toolId: 'search',
    toolName: 'mcp__arxiv__search', origin: 'agent', status: 'ok', errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0,
    durationMs: 5, sizeBytes: result.length, casHash: sha256Hex(result), argumentsHash: sha256Hex(encoder.encode(`{"q":${i}}`)), authorizationId: null,
    startedAt: at(i), endedAt: at(i), ...overrides,
  };
}

async function call(log: AuditLog, i: number, overrides: Partial<InvocationRecord> = {}): Promise<InvocationRecord> {
  const r = row(i, overrides);
  await log.begin({ id: r.id, sessionId: r.sessionId, projectId: r.projectId, toolName: r.toolName, origin: r.origin, argumentsHash: r.argumentsHash, startedAt: r.startedAt }, encoder.encode(`{"q":${i}}`));
  await log.complete(r, encoder.encode(`{"n":${i}}`));
  return r;
}

const ids = (rows: InvocationRecord[]) => rows.map((r) => r.id);

describe('the audit log seals segments', () => {
  it('keeps one segment in memory, indexes the sealed ones, and still pages a Session and finds rows and blobs across them', async () => {
    const log = await openLog();
    for (let i = 0; i < 35; i++) await call(log, i);
    await log.close();
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['00000001.idx.json', '00000001.log', '00000002.idx.json', '00000002.log', '00000003.idx.json', '00000003.log', '00000004.log']);

    const reopened = await openLog();
    const odd = await reopened.listBySession('ses_odd', { limit: 7 });
    expect(ids(odd)).toEqual(['inv_033', 'inv_031', 'inv_029', 'inv_027', 'inv_025', 'inv_023', 'inv_021']);
    const next = await reopened.listBySession('ses_odd', { limit: 20, before: odd.at(-1)! });
    expect(ids(next)).toEqual(Array.from({ length: 10 }, (_, k) => `inv_${String(19 - 2 * k).padStart(3, '0')}`));
    expect(await reopened.get('inv_002')).toEqual(row(2));
    expect((await reopened.blob(row(2).casHash!))?.toString()).toBe('{"n":2}');
    expect((await reopened.blob(row(2).argumentsHash!))?.toString()).toBe('{"q":2}');
    expect(await reopened.blob('f'.repeat(64))).toBeUndefined();
  });

  it('a long call that ends segments after a newer one started still lists in start order', async () => {
    const log = await openLog();
    const long = row(300, { sessionId: 'ses_long', startedAt: at(0) });
    await log.begin({ id: long.id, sessionId: long.sessionId, projectId: long.projectId, toolName: long.toolName, origin: long.origin, argumentsHash: long.argumentsHash, startedAt: long.startedAt }, encoder.encode('{}'));
    // Started after the long call, ended at once: its row lands in the first segment.
    await call(log, 301, { sessionId: 'ses_long', startedAt: at(50), endedAt: at(51) });
    for (let i = 0; i < 25; i++) await call(log, i, { startedAt: at(100 + i), endedAt: at(100 + i) });
    await log.complete({ ...long, endedAt: at(200) }, encoder.encode('{}'));
    expect(ids(await log.listBySession('ses_long', { limit: 1 }))).toEqual(['inv_301']);
    expect(ids(await log.listBySession('ses_long', { limit: 5 }))).toEqual(['inv_301', 'inv_300']);
  });

  it('a call in flight across a seal is interrupted at the next start (only the newest index and the active segment are read)', async () => {
    const log = await openLog();
    const open = row(100, { startedAt: at(0) });
    await log.begin({ id: open.id, sessionId: open.sessionId, projectId: open.projectId, toolName: open.toolName, origin: open.origin, argumentsHash: open.argumentsHash, startedAt: open.startedAt }, encoder.encode('{"q":100}'));
    for (let i = 0; i < 25; i++) await call(log, i);
    await log.indexed();
    // kill -9: the open intent has no completion; its line is in the first, sealed segment.
    const reopened = await openLog();
    expect(await reopened.get(open.id)).toBeUndefined();
    expect(await reopened.interruptUnfinished(at(60))).toBe(1);
    expect(await reopened.get(open.id)).toMatchObject({ status: 'interrupted', errorCode: 'interrupted', endedAt: at(60), durationMs: 60_000 });
    expect((await reopened.blob(open.argumentsHash!))?.toString()).toBe('{"q":100}');
    expect(await reopened.interruptUnfinished(at(61))).toBe(0);
  });

  it('a segment whose index a stop kept from being written is read through and indexed at the next start', async () => {
    const log = await openLog();
    const open = row(200);
    await log.begin({ id: open.id, sessionId: open.sessionId, projectId: open.projectId, toolName: open.toolName, origin: open.origin, argumentsHash: open.argumentsHash, startedAt: open.startedAt }, encoder.encode('{}'));
    for (let i = 0; i < 25; i++) await call(log, i);
    await log.close();
    await rm(indexPath(dir, 2));
    const reopened = await openLog();
    expect(ids(await reopened.listBySession('ses_even', { limit: 100 }))).toHaveLength(13);
    expect(await reopened.interruptUnfinished(at(99))).toBe(1);
    expect((await readdir(dir)).includes('00000002.idx.json')).toBe(true);
  });

  it('an index that parses but is not a whole index (its open intents and blob places gone) is read through like a missing one', async () => {
    const log = await openLog();
    const open = row(200);
    await log.begin({ id: open.id, sessionId: open.sessionId, projectId: open.projectId, toolName: open.toolName, origin: open.origin, argumentsHash: open.argumentsHash, startedAt: open.startedAt }, encoder.encode('{}'));
    for (let i = 0; i < 25; i++) await call(log, i);
    await log.close();
    for (const segment of [1, 2]) {
      const { rows, lastSeq } = JSON.parse(await readFile(indexPath(dir, segment), 'utf8')) as { rows: unknown[]; lastSeq: number };
      await writeFile(indexPath(dir, segment), JSON.stringify({ version: 1, segment, rows, lastSeq }));
    }
    const reopened = await openLog();
    expect(ids(await reopened.listBySession('ses_even', { limit: 100 }))).toHaveLength(13);
    expect((await reopened.blob(row(3).casHash!))?.toString()).toBe('{"n":3}');
    expect(await reopened.interruptUnfinished(at(99))).toBe(1);
  });

  it('authorizations appended beside the calls are listed per Session across sealed segments, a lost index and a restart', async () => {
    const log = await openLog();
    const authorization = (i: number): PermissionAuthorizationRecord => ({
      id: `pauth_${String(i).padStart(3, '0')}`, sessionId: row(i).sessionId, invocationId: row(i).id, requestId: null, grantId: null,
      action: 'tool.call', resource: 'mcp__notes__write_note', basis: 'always_allow', allowed: true, via: 'mode', epoch: 0, createdAt: at(i),
    });
    for (let i = 0; i < 25; i++) {
      await log.authorize(authorization(i));
      await call(log, i);
    }
    const even = Array.from({ length: 13 }, (_, k) => authorization(2 * k));
    expect(await log.authorizationsOf('ses_even')).toEqual(even);
    await log.close();
    await rm(indexPath(dir, 2));
    const reopened = await openLog();
    expect(await reopened.authorizationsOf('ses_even')).toEqual(even);
    expect(await reopened.authorizationsOf('ses_odd')).toHaveLength(12);
    expect(await reopened.authorizationsOf('ses_none')).toEqual([]);
    // The rows are unaffected by the authorization lines between them.
    expect(ids(await reopened.listBySession('ses_even', { limit: 100 }))).toHaveLength(13);
  });

  it('deletes sealed segments whose calls all ended before the retention window, never the newest sealed one', async () => {
    const log = await openLog();
    // Thirty calls on day 0, then ten on day 40.
    for (let i = 0; i < 30; i++) await call(log, i);
    for (let i = 30; i < 40; i++) await call(log, i, { startedAt: at(40 * 86_400 + i), endedAt: at(40 * 86_400 + i) });
    await log.close();
    await openLog({ retentionDays: 30, now: () => new Date(at(41 * 86_400)) });
    const left = (await readdir(dir)).filter((f) => f.endsWith('.log')).sort();
    expect(left).toEqual(['00000004.log', '00000005.log']);
  });
});

describe('the audit log group-commits a completion with the next intent', () => {
  const intentOf = (r: InvocationRecord) => ({ id: r.id, sessionId: r.sessionId, projectId: r.projectId, toolName: r.toolName, origin: r.origin, argumentsHash: r.argumentsHash, startedAt: r.startedAt });
  const authorizationOf = (r: InvocationRecord): PermissionAuthorizationRecord => ({
    id: `pauth_${r.id}`, sessionId: r.sessionId, invocationId: r.id, requestId: null, grantId: null,
    action: 'tool.call', resource: r.toolName, basis: 'always_allow', allowed: true, via: 'mode', epoch: 0, createdAt: r.startedAt,
  });
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('an intent waits for company like a completion, until its call acts (urge)', async () => {
    const log = await openLog({ segmentRows: 100, lingerMs: 600_000 });
    const only = row(4);
    const before = log.flushCount;
    let durable = false;
    const intent = log.begin(intentOf(only), encoder.encode('{"q":4}')).then(() => (durable = true));
    await turns(20);
    expect(durable).toBe(false);
    log.urge();
    await intent;
    expect(log.flushCount - before).toBe(1);
  });

  it('the start does not linger over the calls a crash left open: it waits for their interrupted rows', async () => {
    const before = await openLog({ segmentRows: 100 });
    const open = row(5);
    await Promise.all([before.begin(intentOf(open), encoder.encode('{"q":5}')), before.urge()]);
    await before.close();
    const after = await openLog({ segmentRows: 100, lingerMs: 600_000 });
    const lingering = new Promise((resolve) => setTimeout(() => resolve('still lingering'), 2000));
    expect(await Promise.race([after.interruptUnfinished(at(6)), lingering])).toBe(1);
    expect(await after.get(open.id)).toMatchObject({ status: 'interrupted' });
  });

  it('a completion waits for the next call that acts, whose intent takes it along in one write and one fsync', async () => {
    const log = await openLog({ segmentRows: 100, lingerMs: 600_000 });
    const [first, second] = [row(1), row(2)];
    // As a dangerous call does: its intent, and a few continuations later its authorization, in one flush.
    const intent = log.begin(intentOf(first), encoder.encode('{"q":1}'));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await Promise.all([intent, log.authorize(authorizationOf(first))]);
    const before = log.flushCount;
    let firstDurable = false;
    const firstDone = log.complete(first, encoder.encode('{"n":1}')).then(() => (firstDurable = true));
    await turns(20);
    expect(firstDurable).toBe(false);
    expect(log.flushCount).toBe(before);
    const secondIntent = log.begin(intentOf(second), encoder.encode('{"q":2}'));
    log.urge();
    await secondIntent;
    await firstDone;
    expect(log.flushCount - before).toBe(1);
    // Closing writes a completion still waiting.
    const secondDone = log.complete(second, encoder.encode('{"n":2}'));
    await log.close();
    await secondDone;
    const reopened = await openLog();
    expect(await reopened.get(first.id)).toEqual(first);
    expect(await reopened.get(second.id)).toEqual(second);
  });

  it('writes the flush a call waits for on the event loop while it is the only call open, through the thread pool while others are', async () => {
    const log = await openLog({ segmentRows: 100, lingerMs: 600_000 });
    const [alone, first, second] = [row(1), row(2), row(3)];
    const intent = log.begin(intentOf(alone), encoder.encode('{"q":1}'));
    log.urge();
    await intent;
    expect(log.loopFlushCount).toBe(1);
    void log.complete(alone, encoder.encode('{"n":1}'));
    // Two calls open: a write on the loop would hold up the other's work until the disk answers.
    const both = Promise.all([log.begin(intentOf(first), encoder.encode('{"q":2}')), log.begin(intentOf(second), encoder.encode('{"q":3}'))]);
    log.urge();
    await both;
    expect(log.loopFlushCount).toBe(1);
    expect(log.flushCount).toBe(2);
    await Promise.all([log.complete(first, encoder.encode('{"n":2}')), log.complete(second, encoder.encode('{"n":3}')), log.close()]);
    const reopened = await openLog();
    for (const r of [alone, first, second]) expect(await reopened.get(r.id)).toEqual(r);
  });

  it('an intent urged while it waits behind a seal is written once the seal is done, not after the linger', async () => {
    const log = await openLog({ segmentRows: 100, lingerMs: 600_000 });
    const sealing = log.seal();
    // The seal holds new lines back in the audit log until the next segment is open.
    const intent = log.begin(intentOf(row(2)), encoder.encode('{"q":2}'));
    log.urge();
    const lingering = new Promise((resolve) => setTimeout(() => resolve('still lingering'), 2000));
    expect(await Promise.race([intent.then(() => 'durable'), lingering])).toBe('durable');
    await sealing;
  });

  it('a completion nobody follows is durable on its own after the linger', async () => {
    const log = await openLog({ segmentRows: 100, lingerMs: 5 });
    const only = row(3);
    await log.begin(intentOf(only), encoder.encode('{"q":3}'));
    const before = log.flushCount;
    await log.complete(only, encoder.encode('{"n":3}'));
    expect(log.flushCount - before).toBe(1);
    expect(await (await openLog()).get(only.id)).toEqual(only);
  });
});

describe('a damaged audit segment', () => {
  it('a damaged line in the active segment costs only its own record: the calls after it keep their rows and blobs', async () => {
    const log = await openLog({ segmentRows: 100 });
    for (let i = 0; i < 4; i++) await call(log, i);
    await log.close();
    // One flipped byte inside call 1's completion line (`"kind":` becomes `"kind";`).
    const path = join(dir, '00000001.log');
    const bytes = await readFile(path);
    const at1 = bytes.indexOf('"kind":"completion","row":{"id":"inv_001"');
    bytes[at1 + '"kind"'.length] = ';'.charCodeAt(0);
    await writeFile(path, bytes);

    const warnings: unknown[] = [];
    const reopened = await openLog({ segmentRows: 100, log: { ...silentLogger, warn: (fields: unknown) => void warnings.push(fields) } });
    expect(await reopened.get('inv_003')).toEqual(row(3));
    expect((await reopened.blob(row(3).casHash!))?.toString()).toBe('{"n":3}');
    expect(ids(await reopened.listBySession('ses_odd'))).toEqual(['inv_003']);
    expect(warnings).toEqual([expect.objectContaining({ damagedLines: 1 })]);
    // Call 1's intent has no completion any more: it is told apart as interrupted, not lost.
    expect(await reopened.interruptUnfinished(at(60))).toBe(1);
    expect(await reopened.get('inv_001')).toMatchObject({ status: 'interrupted' });
    await call(reopened, 4);
    expect(await (await openLog({ segmentRows: 100 })).get('inv_004')).toEqual(row(4));
  });
});
