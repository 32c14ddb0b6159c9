import { ProviderError } from '../shared/providerError.js';

const STABLE_ID = /^ENS(?:[A-Z]{3})?[GTEPRF]\d{11}(?:\.\d+)?$/;
const SPECIES = /^[a-z][a-z0-9_]{1,80}$/;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;

/** An Ensembl stable id, with the version suffix kept apart. */
export interface EnsemblId {
  /** As asked, upper-cased: `ENSG00000139618` or `ENSG00000139618.17`. */
  id: string;
  /** Without the version: `ENSG00000139618`. */
  base: string;
}

/** Validates an Ensembl stable id (`.n` version accepted); `invalid_input` names `field`. */
export function requireEnsemblId(raw: string, field: string): EnsemblId {
  const id = raw.trim().toUpperCase();
  if (!STABLE_ID.test(id)) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${raw.slice(0, 32)}" is not an Ensembl stable id; use e.g. ENSG00000139618 or ENSP00000419060.2`,
    );
  }
  return { id, base: id.replace(/\.\d+$/, '') };
}

/** Validates a species as Ensembl names it (`homo_sapiens`, or an alias such as `human`); spaces become `_`. */
export function requireSpecies(raw: string, field: string): string {
  const species = raw.trim().toLowerCase().replace(/\s+/g, '_');
  if (!SPECIES.test(species)) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 40)}" is not an Ensembl species name such as homo_sapiens`);
  }
  return species;
}

/** Validates a gene symbol (BRCA2, HLA-A, C1orf112); `invalid_input` names `field`. */
export function requireSymbol(raw: string, field: string): string {
  const symbol = raw.trim();
  if (!SYMBOL.test(symbol)) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 40)}" is not a gene symbol such as BRCA2`);
  }
  return symbol;
}

/** Splits `ENSP00000419060.2` into id and version (Ensembl sometimes answers with the versioned id). */
export function splitVersion(id: string, version?: number | null): { base: string; version?: number } {
  const match = /^(.*)\.(\d+)$/.exec(id);
  const base = match ? match[1]! : id;
  const found = version ?? (match ? Number(match[2]) : undefined);
  return found !== undefined ? { base, version: found } : { base };
}
