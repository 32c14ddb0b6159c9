import { describe, expect, it } from 'vitest';
import { artifactBaseUrl } from '../../../sources/shared/artifactBaseUrl.js';
import { ensemblManifest } from '../../../sources/ensembl/manifest.js';

const PUBLIC = 'https://rest.ensembl.org';
const allowed = ensemblManifest.allowedDomains;

describe('candidate base URL under a base override (Ensembl)', () => {
  it('keeps an allowed https mirror, so GRCh37 records get GRCh37 FASTA files', () => {
    expect(artifactBaseUrl('https://grch37.rest.ensembl.org/', PUBLIC, allowed)).toBe('https://grch37.rest.ensembl.org');
  });

  it('falls back to the public host for loopback, plain-http, foreign or unparsable overrides', () => {
    for (const override of ['http://127.0.0.1:4000', 'http://rest.ensembl.org', 'https://mirror.example.org', 'not a url', undefined]) {
      expect(artifactBaseUrl(override, PUBLIC, allowed)).toBe(PUBLIC);
    }
  });
});
