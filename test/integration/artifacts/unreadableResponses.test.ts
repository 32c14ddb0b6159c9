import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

const errorOf = (result: any) => result.structuredContent.error;

describe('responses the download cannot read, through a real gateway', () => {
  let g: DownloadGateway;
  beforeEach(async () => {
    g = await startDownloadGateway();
  });
  afterEach(async () => {
    await g.dispose();
  });

  it('say what was wrong with the response, not only that the connection broke', async () => {
    const { client } = await g.agent('unreadable', { approvalMode: 'always_allow' });
    const cases: Array<[string, string, RegExp]> = [
      ['coded.bin', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n', /unsupported transfer-encoding "gzip, chunked"/],
      ['badchunk.bin', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n', /invalid chunk size "zz"/],
      ['nohttp.bin', 'SSH-2.0-OpenSSH_9.6\r\n\r\n', /not an HTTP\/1\.x status line: "SSH-2\.0-OpenSSH_9\.6"/],
    ];
    for (const [name, raw] of cases) {
      g.source.offer(name, { mediaType: 'application/octet-stream', kind: 'data' });
      g.files.serve(`/${name}`, { body: Buffer.alloc(0), raw });
    }
    const { invocationId, artifacts } = await g.search(client, cases.map(([name]) => name));
    for (const [i, [name, , reason]] of cases.entries()) {
      const result = await g.download(client, { mcpInvocationId: invocationId, candidateId: artifacts[i].id });
      expect(errorOf(result), name).toMatchObject({ code: 'upstream_unavailable', message: expect.stringMatching(reason) });
      expect(errorOf(result).message, name).toMatch(/Gave up after 3 attempts/);
    }
  });
});
