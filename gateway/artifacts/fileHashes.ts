import { createHash, type Hash } from 'node:crypto';
import { GatewayError } from '../core/index.js';

export type ChecksumAlgorithm = 'sha256' | 'sha1' | 'md5';

/** sha256 of every byte, always; and the candidate's own algorithm when it names another. */
export class FileHashes {
  private sha256: Hash = createHash('sha256');
  private other: Hash | undefined;

  constructor(private readonly expected?: { algorithm: ChecksumAlgorithm; value: string }) {
    this.reset();
  }

  /** Starts over (a server ignored the Range request and sent the whole file). */
  reset(): void {
    this.sha256 = createHash('sha256');
    this.other = this.expected && this.expected.algorithm !== 'sha256' ? createHash(this.expected.algorithm) : undefined;
  }

  update(chunk: Uint8Array): void {
    this.sha256.update(chunk);
    this.other?.update(chunk);
  }

  /** The sha256 hex; throws `upstream_error` when the candidate's checksum does not match. */
  finish(): string {
    const sha256 = this.sha256.digest('hex');
    if (!this.expected) return sha256;
    const actual = this.other ? this.other.digest('hex') : sha256;
    if (actual !== this.expected.value.toLowerCase()) {
      throw new GatewayError(
        'upstream_error',
        `The downloaded file's ${this.expected.algorithm} is ${actual}, but the source announced ${this.expected.value.slice(0, 128)}; the file was discarded. Try again later or report it to the source.`,
        { details: { reason: 'checksum_mismatch', algorithm: this.expected.algorithm, sha256 } },
      );
    }
    return sha256;
  }
}
