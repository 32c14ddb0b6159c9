/** Options of one full-text search page. */
export interface PdbSearchOptions {
  query: string;
  start: number;
  rows: number;
}

/** The Search API v2 request for a full-text search over experimental entries, one page. */
export function pdbSearchRequest(options: PdbSearchOptions): string {
  return JSON.stringify({
    query: { type: 'terminal', service: 'full_text', parameters: { value: options.query } },
    return_type: 'entry',
    request_options: {
      paginate: { start: options.start, rows: options.rows },
      results_content_type: ['experimental'],
      sort: [{ sort_by: 'score', direction: 'desc' }],
    },
  });
}

/**
 * The GraphQL query for one page of search hits: exactly the fields the entry parser reads, with the
 * GraphQL names of the citation ids aliased to their REST spelling so one parser reads both.
 */
export function pdbEntriesQuery(ids: readonly string[]): string {
  const list = ids.map((id) => JSON.stringify(id)).join(',');
  return `{entries(entry_ids:[${list}]){rcsb_id struct{title} struct_keywords{pdbx_keywords} exptl{method}
 rcsb_entry_info{resolution_combined polymer_composition molecular_weight deposited_polymer_entity_instance_count}
 rcsb_accession_info{initial_release_date deposit_date revision_date}
 rcsb_primary_citation{title rcsb_authors year rcsb_journal_abbrev journal_abbrev journal_volume page_first page_last
 pdbx_database_id_doi:pdbx_database_id_DOI pdbx_database_id_pub_med:pdbx_database_id_PubMed}
 pdbx_database_status{pdb_format_compatible} rcsb_entry_container_identifiers{polymer_entity_ids}}}`.replace(/\n/g, '');
}
