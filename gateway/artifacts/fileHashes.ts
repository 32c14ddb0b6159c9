import { GatewayError } from '../core/index.js';

export type ChecksumAlgorithm = 'sha256' | 'sha1' | 'md5';

/** The hex digests of a downloaded file: sha256 always, `other` when the candidate names another algorithm. */
export interface FileDigests {
  sha256: string;
  other?: string;
}

/** The sha256 hex; throws `upstream_error` when the candidate's checksum does not match. */
export function verifiedSha256(digests: FileDigests, expected?: { algorithm: ChecksumAlgorithm; value: string }): string {
  const { sha256 } = digests;
  if (!expected) return sha256;
  const actual = expected.algorithm === 'sha256' ? sha256 : digests.other;
  if (actual !== expected.value.toLowerCase()) {
    throw new GatewayError(
      'upstream_error',
      `The downloaded file's ${expected.algorithm} is ${actual}, but the source announced ${expected.value.slice(0, 128)}; the file was discarded. Try again later or report it to the source.`,
      { details: { reason: 'checksum_mismatch', algorithm: expected.algorithm, sha256 } },
    );
  }
  return sha256;
}
