/** The RCSB endpoints a PDB source talks to. */
export interface PdbEndpoints {
  /** Search API v2 query endpoint (GET with `?json=`). */
  search: string;
  /** Data API REST root (`…/core`). */
  core: string;
  /** Data API GraphQL endpoint (GET with `?query=`). */
  graphql: string;
}

/** Coordinate files are always linked on files.rcsb.org: candidates must be public https URLs. */
export const PDB_FILES_BASE = 'https://files.rcsb.org/download';

/**
 * RCSB serves search, data and files from three hosts. One base override (`SCIGATE_PDB_BASE_URL`)
 * stands for all of them, as path prefixes: `${base}/search/…` ↔ https://search.rcsb.org/…,
 * `${base}/data/…` ↔ https://data.rcsb.org/… — one reverse proxy (or one loopback server) can then
 * mirror the whole API. Without an override the public hosts are used.
 */
export function pdbEndpoints(baseUrl: string | undefined): PdbEndpoints {
  const base = baseUrl?.replace(/\/+$/, '');
  const searchHost = base ? `${base}/search` : 'https://search.rcsb.org';
  const dataHost = base ? `${base}/data` : 'https://data.rcsb.org';
  return {
    search: `${searchHost}/rcsbsearch/v2/query`,
    core: `${dataHost}/rest/v1/core`,
    graphql: `${dataHost}/graphql`,
  };
}
