import { ProviderError } from '../shared/providerError.js';

const PMID = /^[1-9]\d{0,8}$/;
const PMCID = /^PMC(\d+)$/;
/** E-utilities accepts YYYY, YYYY/MM or YYYY/MM/DD for mindate/maxdate. */
const EUTILS_DATE = /^(\d{4})(?:\/(0[1-9]|1[0-2])(?:\/(0[1-9]|[12]\d|3[01]))?)?$/;

/** Reads a PMID ("28775130", "PMID:28775130"); undefined when malformed. */
export function parsePmid(input: string): string | undefined {
  const id = input.trim().replace(/^pmid:\s*/i, '');
  return PMID.test(id) ? id : undefined;
}

/** A PMID or an invalid_input error naming the field. */
export function requirePmid(raw: string, field: string): string {
  const pmid = parsePmid(raw);
  if (!pmid) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 64)}" is not a PMID; use digits only, e.g. 28775130`);
  }
  return pmid;
}

/** The digits of a PMCID ("PMC5771820" → "5771820"); undefined when malformed. */
export function pmcNumber(pmcid: string): string | undefined {
  return PMCID.exec(pmcid.trim().toUpperCase())?.[1];
}

/** Normalizes a date filter to E-utilities' YYYY[/MM[/DD]] (dashes accepted), or throws naming the field. */
export function requireEutilsDate(raw: string, field: string): string {
  const value = raw.trim().replace(/-/g, '/');
  if (!EUTILS_DATE.test(value)) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 32)}" is not a date; use YYYY, YYYY/MM or YYYY/MM/DD`);
  }
  return value;
}
