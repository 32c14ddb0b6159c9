import { ProviderError } from '../shared/providerError.js';

/** Europe PMC's record sources; an id means nothing without its source. */
const SOURCES = ['MED', 'PMC', 'PPR', 'AGR', 'CBA', 'CTX', 'ETH', 'HIR', 'PAT', 'NBK'] as const;
/** A Europe PMC record source code (MED = PubMed, PMC, PPR = preprint …). */
export type EuropepmcSource = (typeof SOURCES)[number];

const PMID = /^[1-9]\d{0,8}$/;
const PMCID = /^PMC\d{1,9}$/i;
const PREPRINT = /^PPR\d{1,9}$/i;
const DOI = /^10\.\d{4,9}\/[^\s"]+$/i;
const SOURCE_AND_ID = /^([A-Z]{3})[:/]([A-Za-z0-9._-]{1,40})$/i;

/** What `get` was asked for, and the Europe PMC query clause that finds it. */
export type EuropepmcRef =
  | { kind: 'pmid'; value: string; clause: string }
  | { kind: 'pmcid'; value: string; clause: string }
  | { kind: 'doi'; value: string; clause: string }
  | { kind: 'source'; source: EuropepmcSource; value: string; clause: string };

/** Reads a PMID, PMCID, DOI, preprint id (PPR…) or SOURCE:id pair ("MED:20516115"); undefined when malformed. */
export function parseEuropepmcId(input: string): EuropepmcRef | undefined {
  const text = input.trim();
  if (PMID.test(text)) return { kind: 'pmid', value: text, clause: `EXT_ID:${text} AND SRC:MED` };
  if (PMCID.test(text)) return { kind: 'pmcid', value: text.toUpperCase(), clause: `PMCID:${text.toUpperCase()}` };
  if (PREPRINT.test(text)) return sourceRef('PPR', text.toUpperCase());
  const doi = text.replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  if (DOI.test(doi)) return { kind: 'doi', value: doi.toLowerCase(), clause: `DOI:"${doi}"` };
  const pair = SOURCE_AND_ID.exec(text);
  const source = pair?.[1]?.toUpperCase() as EuropepmcSource | undefined;
  if (!pair || !source || !SOURCES.includes(source)) return undefined;
  return source === 'MED' && !PMID.test(pair[2]!) ? undefined : sourceRef(source, pair[2]!);
}

/** An id reference or an invalid_input error naming the field. */
export function requireEuropepmcId(raw: string, field: string): EuropepmcRef {
  const ref = parseEuropepmcId(raw);
  if (!ref) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${raw.slice(0, 64)}" is not a Europe PMC id; use a PMID (20516115), PMCID (PMC3040717), DOI (10.1158/…), PPR id or SOURCE:id (MED:20516115)`,
    );
  }
  return ref;
}

/** True when a search result is the record this reference asked for. */
export function matchesRef(ref: EuropepmcRef, result: { id: string; source: string; pmid?: string; pmcid?: string; doi?: string }): boolean {
  switch (ref.kind) {
    case 'pmid':
      return result.source === 'MED' && (result.pmid ?? result.id) === ref.value;
    case 'pmcid':
      return result.pmcid?.toUpperCase() === ref.value;
    case 'doi':
      return result.doi?.toLowerCase() === ref.value;
    case 'source':
      return result.source === ref.source && result.id.toUpperCase() === ref.value.toUpperCase();
  }
}

function sourceRef(source: EuropepmcSource, id: string): EuropepmcRef {
  return { kind: 'source', source, value: id, clause: `EXT_ID:${id} AND SRC:${source}` };
}
