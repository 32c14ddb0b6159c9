import { ProviderError } from '../shared/providerError.js';

const PDB_ID = /^[1-9][A-Z0-9]{3}$/;

/** Validates a 4-character PDB id and returns it upper-cased (RCSB ids are case-insensitive); `invalid_input` names `field`. */
export function requirePdbId(raw: string, field: string): string {
  const id = raw.trim().toUpperCase();
  if (!PDB_ID.test(id)) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 32)}" is not a PDB id; use 4 characters such as 4HHB`);
  }
  return id;
}

/** The entry DOI RCSB assigns to every PDB id (lower-case id inside). */
export function pdbEntryDoi(id: string): string {
  return `10.2210/pdb${id.toLowerCase()}/pdb`;
}
