import { ProviderError } from '../shared/providerError.js';

/** VCV accessions are zero-padded to 9 digits; E-utilities uids are the bare Variation ID. */
const VCV = /^VCV(\d{1,9})(?:\.(\d+))?$/i;
const VARIATION_ID = /^\d{1,9}$/;
const OTHER_ACCESSION = /^(RCV|SCV)\d{1,9}(\.\d+)?$/i;

/** A ClinVar variation as `get` addresses it. */
export interface ClinvarVariationRef {
  /** Bare Variation ID, the E-utilities uid ("2"). */
  variationId: string;
  /** VCV accession padded to 9 digits ("VCV000000002"). */
  accession: string;
  /** The version the caller asked for, if any. */
  version?: string;
}

/** The VCV accession of a Variation ID, zero-padded as ClinVar prints it. */
export function vcvAccession(variationId: string): string {
  return `VCV${variationId.padStart(9, '0')}`;
}

/** Reads "VCV000000002", "VCV000000002.3", "vcv2" or the Variation ID "2"; undefined when malformed. */
export function parseClinvarId(input: string): ClinvarVariationRef | undefined {
  const text = input.trim();
  const vcv = VCV.exec(text);
  const digits = vcv ? vcv[1]! : VARIATION_ID.test(text) ? text : undefined;
  if (digits === undefined) return undefined;
  const variationId = String(Number(digits));
  if (variationId === '0') return undefined;
  const ref: ClinvarVariationRef = { variationId, accession: vcvAccession(variationId) };
  if (vcv?.[2]) ref.version = vcv[2];
  return ref;
}

/** A variation reference or an invalid_input error naming the field and what to send instead. */
export function requireClinvarId(raw: string, field: string): ClinvarVariationRef {
  const ref = parseClinvarId(raw);
  if (ref) return ref;
  const shown = raw.trim().slice(0, 64);
  if (OTHER_ACCESSION.test(raw.trim())) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${shown}" is an ${shown.slice(0, 3).toUpperCase()} accession; get takes VCV accessions or Variation IDs (search finds RCV/SCV accessions)`,
    );
  }
  throw new ProviderError('invalid_input', `${field}: "${shown}" is not a ClinVar id; use a VCV accession (VCV000014206) or a Variation ID (14206)`);
}

/** ClinVar prints dates as "2015/08/10 00:00"; unused classifications carry the sentinel "1/01/01 00:00". */
export function clinvarDate(text: string | undefined): string | undefined {
  const match = /^(\d{4})[/-](\d{2})[/-](\d{2})/.exec(text?.trim() ?? '');
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}
