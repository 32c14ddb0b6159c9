import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../../gateway/core/index.js';
import { SqlDatabase } from '../../storage/index.js';
import { syntheticBytes } from '../fixtures/fileServer.js';
import { startDownloadingGateway, type DownloadingGateway } from './downloadingGateway.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a kill -9 between a download\'s commit and its job\'s completion', () => {
  let g: DownloadingGateway | undefined;
  afterEach(async () => {
    await g?.dispose();
  });

  it('completes the job at restart from the file in place, instead of failing it with 0 bytes kept and a retry that can only conflict', { timeout: 300_000 }, async () => {
    g = await startDownloadingGateway('committing-agent');
    const { client, candidate, dataDir, session } = g;
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), syntheticBytes(0, 300_000 - 9)]);
    g.files.serve(new URL(candidate.url).pathname, { body });
    const result: any = await client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: g.invocationId, candidateId: candidate.id } });
    expect(result.isError).toBeFalsy();
    await g.gateway.kill9();
    // What a kill -9 leaves when it lands after the part file was renamed into place but before the
    // job's `completed` line reached the journal: the job as it was persisted last, `verifying`.
    const db = await SqlDatabase.open({ dataDir, log: silentLogger });
    expect(await db.write("UPDATE download_jobs SET state = 'verifying', sha256 = NULL, ended_at = NULL WHERE state = 'completed'")).toBe(1);
    await db.close();

    const gateway = await g.restart();
    const { body: listed } = await gateway.api.get(`/api/sessions/${session.id}/download-jobs`);
    expect(listed.jobs[0]).toMatchObject({ state: 'completed', bytesDone: body.length, totalBytes: body.length, sha256: sha256(body), errorCode: null });
    const final = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', candidate.filename);
    expect(sha256(await readFile(final))).toBe(sha256(body));
  });
});
