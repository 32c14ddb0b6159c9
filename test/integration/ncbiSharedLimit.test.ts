import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { pubmedReplay } from '../fixtures/providers/pubmedReplay.js';
import { clinvarReplay } from '../fixtures/providers/clinvarReplay.js';
import { geoReplay } from '../fixtures/providers/geoReplay.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/** NCBI's limit without an API key, for all E-utilities together. */
const NCBI_REQUESTS_PER_SECOND = 3;

let provider: ReplayServer;
let gateway: TestGateway;

beforeAll(async () => {
  provider = await startReplayServer((url, req) => pubmedReplay(url, req) ?? clinvarReplay(url, req) ?? geoReplay(url, req));
  const eutils = `${provider.baseUrl}/entrez/eutils`;
  // The manifests' own limits (no test override): this is what protects NCBI in production.
  gateway = await startTestGateway(
    { SCIGATE_PUBMED_BASE_URL: eutils, SCIGATE_CLINVAR_BASE_URL: eutils, SCIGATE_GEO_BASE_URL: eutils },
    undefined,
    { sourceLimits: {} },
  );
});
afterAll(async () => {
  await gateway.dispose();
  await provider.close();
});

/** The most requests that arrived within any one-second window. */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the NCBI sources share one E-utilities budget', () => {
  it('PubMed, ClinVar and GEO called concurrently never exceed 3 requests in any second', async () => {
    const client = await gateway.connect();
    const calls = [
      client.callTool({ name: 'mcp__pubmed__search', arguments: { query: 'cryopreservation[ti] OR 13c[ti]', maxResults: 2 } }),
      client.callTool({ name: 'mcp__clinvar__search', arguments: { gene: 'AP5Z1', condition: 'Hereditary spastic paraplegia 48' } }),
      client.callTool({ name: 'mcp__geo__search', arguments: { query: 'GSE93374[GEO Accession]', maxResults: 1 } }),
      client.callTool({ name: 'mcp__pubmed__search', arguments: { query: 'cryopreservation[ti] OR 13c[ti]', maxResults: 2, start: 0, sort: 'relevance' } }),
    ];
    const results = (await Promise.all(calls)) as Array<{ isError?: boolean; structuredContent: any }>;
    for (const result of results) expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    const eutilsArrivals = provider.arrivals.filter((_, i) => provider.requests[i]!.startsWith('/entrez/eutils/'));
    expect(eutilsArrivals.length).toBeGreaterThanOrEqual(6);
    expect(busiestSecond(eutilsArrivals)).toBeLessThanOrEqual(NCBI_REQUESTS_PER_SECOND);
  });
});
