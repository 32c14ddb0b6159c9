import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type DownloadJobRecord, type ExtractionJobRecord, type PermissionRequestRecord, type Storage } from '../../gateway/core/index.js';
import { PermissionRepository, openPostgresStorage, openStorage } from '../../storage/index.js';
import type { PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';

/**
 * Pending work has an owner replica: on one shared PostgreSQL, a replica's sweep ends only the
 * requests and jobs of replicas whose heartbeat stopped; on the embedded store (one process) every
 * leftover row is swept as before.
 */
const T0 = Date.parse('2026-12-01T00:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function request(id: string): PermissionRequestRecord {
  return {
    id, sessionId: 'ses_1', projectId: 'default', invocationId: `inv_${id}`, toolName: 'mcp__notes__write_note', action: 'tool.call',
    resource: 'mcp__notes__write_note', argumentsPreview: '{}', epoch: 0, status: 'pending', resolution: null, resolvedVia: null, grantId: null,
    authorizationId: null, createdAt: at(0), expiresAt: at(900), resolvedAt: null,
  };
}

function extraction(id: string): ExtractionJobRecord {
  return {
    id, sessionId: 'ses_1', projectId: 'default', invocationId: null, input: 'path', downloadJobId: null, pdfPath: 'uploads/p.pdf',
    sha256: 'a'.repeat(64), sizeBytes: 1, status: 'running', pageCount: null, characterCount: null, textPath: null, manifestPath: null,
    warnings: [], errorCode: null, errorMessage: null, createdAt: at(0), startedAt: at(0), endedAt: null,
  };
}

function download(id: string): DownloadJobRecord {
  return {
    id, planId: 'plan_1', sessionId: 'ses_1', projectId: 'default', sourceId: 'arxiv', sourceRecordId: '2401.00001', candidateId: 'cand_1',
    url: 'https://arxiv.org/pdf/2401.00001', destinationPath: `downloads/${id}.pdf`, mediaType: 'application/pdf', license: 'CC-BY-4.0',
    state: 'running', bytesDone: 0, totalBytes: null, sha256: null, expectedChecksum: null, attempts: 1, errorCode: null, errorMessage: null,
    authorizationId: 'pauth_1', createdAt: at(0), updatedAt: at(0), endedAt: null,
  };
}

/** One pending request, one running extraction, one running download and one call in flight, suffixed by their owner. */
async function addWork(storage: Storage, owner: string): Promise<void> {
  await storage.permissions.addRequest(request(`preq_${owner}`));
  await storage.extractions.addJob(extraction(`ext_${owner}`));
  await storage.artifacts.addJob(download(`job_${owner}`));
  await storage.invocations.begin(
    { id: `inv_${owner}`, sessionId: 'ses_1', projectId: 'default', toolName: 'mcp__arxiv__search', origin: 'agent', argumentsHash: null, startedAt: at(0) },
    new TextEncoder().encode('{}'),
  );
}

/** What a replica's sweep with `alive` ends (download jobs are failed one by one, as ArtifactDownloads does). */
async function sweep(storage: Storage, alive?: readonly string[]) {
  const downloads = await storage.artifacts.listJobsIn(['running'], alive);
  for (const job of downloads) await storage.artifacts.updateJob(job.id, { state: 'failed', errorCode: 'interrupted', endedAt: at(100), updatedAt: at(100) });
  return {
    requests: await storage.permissions.orphanPending(at(100), alive),
    extractions: await storage.extractions.failUnfinished(at(100), 'stopped', alive),
    downloads: downloads.map((j) => j.id),
    calls: await storage.invocations.interruptUnfinished(at(100), alive),
  };
}

let server: PostgresServer;
beforeAll(async () => {
  server = await sharedPostgres();
});
afterAll(async () => {
  await server?.stop();
});

describe('pending work owned by replicas on one PostgreSQL', () => {
  it("a replica's sweep leaves a live replica's work alone and ends a dead one's; a clean stop hands its work over at once", async () => {
    const url = await server.freshSchema();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => openPostgresStorage({ url, log: silentLogger })));
    try {
      expect(new Set([a!.replicas.self, b!.replicas.self, c!.replicas.self]).size).toBe(3);
      await addWork(a!, 'a');
      await addWork(c!, 'c');
      await a!.replicas.beat(at(10));
      await c!.replicas.beat(at(10));
      await b!.replicas.beat(at(10));
      // B starts: A and C beat recently, so nothing is theirs to sweep.
      const alive = await b!.replicas.alive(at(0));
      expect(alive.sort()).toEqual([a!.replicas.self, b!.replicas.self, c!.replicas.self].sort());
      expect(await sweep(b!, alive)).toEqual({ requests: 0, extractions: 0, downloads: [], calls: 0 });
      expect((await a!.permissions.getRequest('preq_a'))?.status).toBe('pending');
      expect((await a!.extractions.getJob('ext_a'))?.status).toBe('running');

      // A stops beating (kill -9): once its heartbeat is older than the bound, only its work is swept.
      await b!.replicas.beat(at(50));
      await c!.replicas.beat(at(50));
      const later = await b!.replicas.alive(at(40));
      expect(later.sort()).toEqual([b!.replicas.self, c!.replicas.self].sort());
      expect(await sweep(b!, later)).toEqual({ requests: 1, extractions: 1, downloads: ['job_a'], calls: 1 });
      expect(await b!.invocations.get('inv_a')).toMatchObject({ status: 'interrupted', errorCode: 'interrupted' });
      expect(await b!.invocations.get('inv_c')).toBeUndefined();
      expect(await b!.permissions.getRequest('preq_a')).toMatchObject({ status: 'orphaned', resolvedVia: 'startup' });
      expect((await b!.extractions.getJob('ext_a'))?.status).toBe('failed');
      expect((await c!.permissions.getRequest('preq_c'))?.status).toBe('pending');
      expect((await c!.extractions.getJob('ext_c'))?.status).toBe('running');

      // C stops cleanly: its heartbeat row goes, and its work is the others' to sweep at once.
      await c!.replicas.leave();
      const afterLeave = await b!.replicas.alive(at(40));
      expect(afterLeave).toEqual([b!.replicas.self]);
      expect(await sweep(b!, afterLeave)).toEqual({ requests: 1, extractions: 1, downloads: ['job_c'], calls: 1 });
    } finally {
      await Promise.all([a, b, c].map((s) => s!.close()));
    }
  });

  it('rows written before owners existed (no replica id) count as dead', async () => {
    const url = await server.freshSchema();
    const store = await openPostgresStorage({ url, log: silentLogger });
    try {
      // A repository without an owner writes what a row from before migration 006 holds.
      await new PermissionRepository(store.database).addRequest(request('preq_old'));
      await store.permissions.addRequest(request('preq_mine'));
      await store.replicas.beat(at(10));
      expect(await store.permissions.orphanPending(at(20), await store.replicas.alive(at(0)))).toBe(1);
      expect((await store.permissions.getRequest('preq_old'))?.status).toBe('orphaned');
      expect((await store.permissions.getRequest('preq_mine'))?.status).toBe('pending');
    } finally {
      await store.close();
    }
  });
});

describe('the embedded store: one process owns it', () => {
  it('every leftover pending row is swept at start, as before owners existed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'scigate-owners-'));
    try {
      const first = await openStorage({ dataDir, log: silentLogger });
      await addWork(first, 'x');
      await first.close();
      const second = await openStorage({ dataDir, log: silentLogger });
      expect(second.replicas).toBeUndefined();
      expect(await sweep(second)).toEqual({ requests: 1, extractions: 1, downloads: ['job_x'], calls: 1 });
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
