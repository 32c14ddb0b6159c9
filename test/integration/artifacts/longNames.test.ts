import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { marker, multiPagePdf } from '../../fixtures/pdfs.js';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

const errorOf = (result: any) => result.structuredContent.error;
const pdf = Buffer.from('%PDF-1.7 p');

// File systems allow 255 bytes a name, not 255 characters, and a download is written as "<name>.part" first.
describe('workspace names near the file system limit, through a real gateway', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });

  it('refuses a destinationPath whose name (or part file name) the file system cannot hold, naming the argument; nothing is fetched', async () => {
    const { client, sessionId } = await g.agent('long-names', { approvalMode: 'always_allow' });
    g.source.offer('p.pdf', { bytes: pdf });
    g.files.serve('/p.pdf', { body: pdf });
    const { invocationId, artifacts } = await g.search(client, ['p.pdf']);
    const download = (destinationPath: string) => g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[0].id, destinationPath });
    const cases: Array<[string, RegExp]> = [
      // 255 characters: a name the file system holds, but not as "<name>.part" (260 bytes).
      [`${'a'.repeat(251)}.pdf`, /longer than 250 bytes .*shorten that name/],
      // 204 characters, 404 bytes.
      [`${'é'.repeat(200)}.pdf`, /longer than 250 bytes .*shorten that name/],
      [`${'é'.repeat(200)}/p.pdf`, /longer than 250 bytes .*shorten that name/],
    ];
    for (const [destinationPath, message] of cases) {
      const result = await download(destinationPath);
      expect(errorOf(result), destinationPath).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(message), details: { field: 'destinationPath' } });
    }
    expect(g.files.requests).toEqual([]);
    // The longest name that fits is downloaded, and nothing was left behind by the refused ones.
    const longest = `${'a'.repeat(246)}.pdf`;
    expect((await download(longest)).structuredContent).toMatchObject({ status: 'completed', finalPath: longest });
    expect(await readdir(join(g.gateway.dataDir, 'workspaces', sessionId))).toEqual([longest]);
  });

  it('extracts a PDF whose name is too long for "<name>.manifest.json": the outputs get a shortened name beside it', async () => {
    const { client, sessionId } = await g.agent('long-pdf');
    const name = `${'é'.repeat(120)}${'x'.repeat(6)}.pdf`; // 250 bytes, the most a name may have
    const bytes = Buffer.from(await multiPagePdf());
    const uploaded = await request(g.gateway.url)
      .post(`/api/sessions/${sessionId}/files?path=${encodeURIComponent(`papers/${name}`)}`)
      .set('authorization', `Bearer ${g.gateway.token}`)
      .set('content-type', 'application/pdf')
      .send(bytes);
    expect(uploaded.status).toBe(201);
    const extract = () => client.callTool({ name: 'paper_extract_pdf', arguments: { path: `papers/${name}` } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;
    const result = await extract();
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    const stem = `papers/${'é'.repeat(116)}`;
    expect(result.structuredContent).toMatchObject({ status: 'completed', textPath: `${stem}.txt`, manifestPath: `${stem}.manifest.json` });
    expect((result.structuredContent as any).textPreview).toContain(marker(1));
    const listed = await readdir(join(g.gateway.dataDir, 'workspaces', sessionId, 'papers'));
    expect(listed.sort()).toEqual([`${'é'.repeat(116)}.manifest.json`, `${'é'.repeat(116)}.txt`, name].sort());
  });
});
