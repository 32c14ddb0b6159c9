import { ProviderError } from '../shared/providerError.js';

const ACCESSION = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d+)?$/;
/** UniProt search cursors are opaque tokens of letters and digits. */
const CURSOR = /^[A-Za-z0-9_.~-]{1,512}$/;

/** A UniProtKB accession, with the isoform suffix kept apart. */
export interface UniprotAccession {
  /** As asked, upper-cased: `P05067` or `P05067-2`. */
  accession: string;
  /** Without the isoform suffix: `P05067`. */
  base: string;
}

/** Validates a UniProtKB accession (6 or 10 characters, optional `-n` isoform); `invalid_input` names `field`. */
export function requireUniprotAccession(raw: string, field: string): UniprotAccession {
  const accession = raw.trim().toUpperCase();
  if (!ACCESSION.test(accession)) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${raw.slice(0, 32)}" is not a UniProtKB accession; use e.g. P05067 or the isoform P05067-2`,
    );
  }
  return { accession, base: accession.replace(/-\d+$/, '') };
}

/** Validates a search cursor taken from a previous page. */
export function requireUniprotCursor(raw: string, field: string): string {
  if (!CURSOR.test(raw)) {
    throw new ProviderError('invalid_input', `${field}: not a UniProt cursor; pass data.nextCursor of the previous page`);
  }
  return raw;
}
