import { ProviderError } from '../shared/providerError.js';

const STABLE_ID = /^R-[A-Z]{3}-\d+(?:\.\d+)?$/;

/** A Reactome stable id, with the version suffix kept apart. */
export interface ReactomeId {
  /** As asked, upper-cased: `R-HSA-5673001` or `R-HSA-5673001.8`. */
  id: string;
  /** Without the version: `R-HSA-5673001`. */
  base: string;
  version?: number;
}

/** Validates a Reactome stable id `R-<SPECIES>-<n>` (`.version` accepted); `invalid_input` names `field`. */
export function requireReactomeId(raw: string, field: string): ReactomeId {
  const id = raw.trim().toUpperCase();
  if (!STABLE_ID.test(id)) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${raw.slice(0, 32)}" is not a Reactome stable id; use e.g. R-HSA-5673001 or R-HSA-5673001.8`,
    );
  }
  const match = /^(.*)\.(\d+)$/.exec(id);
  return match ? { id, base: match[1]!, version: Number(match[2]) } : { id, base: id };
}
