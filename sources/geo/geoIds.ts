import { ProviderError } from '../shared/providerError.js';

/** GEO record types: series, sample, platform, curated dataset. */
export type GeoType = 'GSE' | 'GSM' | 'GPL' | 'GDS';

const ACCESSION = /^(GSE|GSM|GPL|GDS)(\d{1,8})$/i;

/** E-utilities db=gds uids put the record type in the hundred-millions digit (GSE93374 ↔ 200093374). */
const UID_OFFSET: Record<GeoType, number> = { GDS: 0, GPL: 100_000_000, GSE: 200_000_000, GSM: 300_000_000 };

/** A GEO accession with its E-utilities uid. */
export interface GeoAccession {
  type: GeoType;
  accession: string;
  number: string;
  uid: string;
}

/** Reads "GSE93374" (any case); undefined when malformed. */
export function parseGeoAccession(input: string): GeoAccession | undefined {
  const match = ACCESSION.exec(input.trim());
  if (!match) return undefined;
  const type = match[1]!.toUpperCase() as GeoType;
  const number = String(Number(match[2]));
  if (number === '0') return undefined;
  return { type, accession: `${type}${number}`, number, uid: String(UID_OFFSET[type] + Number(number)) };
}

/** A GEO accession or an invalid_input error naming the field. */
export function requireGeoAccession(raw: string, field: string): GeoAccession {
  const accession = parseGeoAccession(raw);
  if (!accession) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 64)}" is not a GEO accession; use GSE, GSM, GPL or GDS plus digits, e.g. GSE93374`);
  }
  return accession;
}

/** The accession a db=gds uid stands for (200093374 → GSE93374). */
export function accessionOfUid(uid: string): string | undefined {
  if (!/^\d{1,9}$/.test(uid)) return undefined;
  const n = Number(uid);
  const type = (['GSM', 'GSE', 'GPL', 'GDS'] as const).find((t) => n > UID_OFFSET[t]);
  return type ? `${type}${n - UID_OFFSET[type]}` : undefined;
}

/** The download-area folder of an accession: its last three digits become "nnn" (GSE93374 → GSE93nnn, GSE123 → GSEnnn). */
export function geoStub(accession: GeoAccession): string {
  return `${accession.type}${accession.number.length > 3 ? accession.number.slice(0, -3) : ''}nnn`;
}

/** GEO links point at ftp://ftp.ncbi.nlm.nih.gov; HTTP clients fetch the same path over https. Other hosts: undefined. */
export function httpsFromFtp(link: string): string | undefined {
  const match = /^(?:ftp|https?):\/\/ftp\.ncbi\.nlm\.nih\.gov(\/[^\s?#]*)$/i.exec(link.trim());
  return match ? `https://ftp.ncbi.nlm.nih.gov${match[1]}` : undefined;
}
