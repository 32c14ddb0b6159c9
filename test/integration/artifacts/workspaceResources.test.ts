import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { syntheticBytes } from '../../fixtures/fileServer.js';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('workspace files as MCP resources, and uploads', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });
  /** Uploads a text file into a Session's workspace through the admin API. */
  const uploadText = (sessionId: string, path: string, text: string) =>
    request(g.gateway.url).post(`/api/sessions/${sessionId}/files?path=${path}`).set('authorization', `Bearer ${g.gateway.token}`).set('content-type', 'text/plain').send(text);

  it('a downloaded file appears in resources/list (with list_changed) and reads back byte-identical, big files in ranges', async () => {
    const { client, sessionId } = await g.agent('reader', { approvalMode: 'always_allow' });
    let changes = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (changes += 1));
    expect((await client.listResources()).resources).toEqual([]);
    const small = Buffer.from('%PDF-1.7 small paper');
    const big = syntheticBytes(0, 9 * 1024 * 1024 + 123);
    g.source.offer('small.pdf', { bytes: small });
    g.source.offer('big.bin', { bytes: big });
    g.files.serve('/small.pdf', { body: small });
    g.files.serve('/big.bin', { body: big });
    const { invocationId, artifacts } = await g.search(client, ['small.pdf', 'big.bin']);
    for (const candidate of artifacts) {
      expect((await g.download(client, { mcpInvocationId: invocationId, candidateId: candidate.id })).isError).toBeFalsy();
    }
    await vi.waitFor(() => expect(changes).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 20 });
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: `scigate://sessions/${sessionId}/files/downloads/files/big.bin`, size: big.length, mimeType: 'application/octet-stream' }),
      expect.objectContaining({ uri: `scigate://sessions/${sessionId}/files/downloads/files/small.pdf`, size: small.length, mimeType: 'application/pdf' }),
    ]);
    const smallRead = await client.readResource({ uri: resources[1]!.uri });
    expect(Buffer.from((smallRead.contents[0] as { blob: string }).blob, 'base64').equals(small)).toBe(true);
    const pieces: Buffer[] = [];
    let uri: string | undefined = resources[0]!.uri;
    for (let reads = 0; uri && reads < 10; reads++) {
      const read = await client.readResource({ uri });
      const piece = Buffer.from((read.contents[0] as { blob: string }).blob, 'base64');
      expect(piece.length).toBeLessThanOrEqual(4 * 1024 * 1024);
      pieces.push(piece);
      uri = (read._meta?.['scigate/range'] as { next?: string } | undefined)?.next;
    }
    expect(pieces).toHaveLength(3);
    expect(sha256(Buffer.concat(pieces))).toBe(sha256(big));
  });

  it('another Session cannot read these files; a path outside is not found', async () => {
    const { sessionId } = await g.agent('owner');
    const { client: stranger } = await g.agent('stranger');
    await g.api.get(`/api/sessions/${sessionId}`);
    const upload = await uploadText(sessionId, 'uploads/notes.txt', 'private notes');
    expect(upload.status).toBe(201);
    expect(upload.body.file).toMatchObject({ path: 'uploads/notes.txt', sizeBytes: 13, resourceUri: `scigate://sessions/${sessionId}/files/uploads/notes.txt` });
    await expect(stranger.readResource({ uri: upload.body.file.resourceUri })).rejects.toThrow(/No resource/);
    expect((await stranger.listResources()).resources).toEqual([]);
    // The gateway's own scheme in other spellings, or broken, is answered here, never passed to a source's server.
    for (const uri of [upload.body.file.resourceUri.toUpperCase(), `scigate://sessions/${sessionId}/files/uploads/%ZZ`]) {
      await expect(stranger.readResource({ uri })).rejects.toThrow(/is not a file of this session; resources\/list shows its files/);
    }
    await expect(stranger.readResource({ uri: `https://example.org/${'x'.repeat(10_000)}` })).rejects.toThrow(/at most 8192 characters/);
  });

  it('a range the URI asks for is read as asked, and a malformed offset or length is refused, not read as the first range', async () => {
    const { client, sessionId } = await g.agent('ranges');
    const upload = await uploadText(sessionId, 'uploads/digits.txt', '0123456789');
    expect(upload.status).toBe(201);
    const uri: string = upload.body.file.resourceUri;
    const read = await client.readResource({ uri: `${uri}?offset=3&length=4` });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').toString()).toBe('3456');
    expect(read._meta?.['scigate/range']).toMatchObject({ offset: 3, length: 4, totalBytes: 10 });
    for (const [query, words] of [['offset=-1', /offset must be a whole number of bytes, not "-1"/], ['offset=abc', /offset must be/], ['length=0', /length must be a whole number of bytes of at least 1, not "0"/], ['length=1.5', /length must be/]] as const) {
      await expect(client.readResource({ uri: `${uri}?${query}` })).rejects.toThrow(words);
    }
  });

  it('uploads raw bodies into the workspace under the same path rules, never over an existing file', async () => {
    const { client, sessionId } = await g.agent('uploader');
    const post = (path: string, body: string | Buffer, type = 'application/octet-stream') =>
      request(g.gateway.url).post(`/api/sessions/${sessionId}/files?path=${encodeURIComponent(path)}`).set('authorization', `Bearer ${g.gateway.token}`).set('content-type', type).send(body);
    const pdf = Buffer.from('%PDF-1.4 uploaded');
    expect((await post('uploads/paper.pdf', pdf, 'application/pdf')).status).toBe(201);
    const read = await client.readResource({ uri: `scigate://sessions/${sessionId}/files/uploads/paper.pdf` });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').equals(pdf)).toBe(true);
    expect((await post('uploads/paper.pdf', 'again')).status).toBe(409);
    for (const bad of ['../escape.txt', '/etc/x', '.hidden', `uploads/${'論'.repeat(100)}.pdf`]) {
      const refused = await post(bad, 'x');
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_input', details: { field: 'path' } });
    }
    expect((await post('uploads/form.txt', '{"a":1}', 'application/json')).status).toBe(415);
  });
});
