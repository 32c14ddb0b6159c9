import { StringDecoder } from 'node:string_decoder';
import type { Logger, SecretScrubber } from '../core/index.js';

/** Longest stderr text in one log line. */
const MAX_LOGGED_CHARS = 2000;

/** Where a stdio child's stderr goes: debug log lines, written chunk by chunk and ended with the child. */
export interface StderrLog {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * Logs a child's stderr at debug level. Each chunk is scrubbed before it is cut to length, and the
 * scrubber holds back a possible secret prefix until the next chunk shows whether it completes a
 * secret, so a value written in two pieces is never logged in part. UTF-8 characters split across
 * chunks are decoded whole.
 */
export function stderrLog(log: Logger, pid: number | undefined, secrets?: SecretScrubber): StderrLog {
  const decoder = new StringDecoder('utf8');
  const stream = secrets?.stream() ?? { push: (text: string) => text, end: () => '' };
  const emit = (text: string) => {
    if (text.length > 0) log.debug({ pid, stderr: text.slice(0, MAX_LOGGED_CHARS) }, 'upstream stderr');
  };
  return {
    write: (chunk) => emit(stream.push(decoder.write(chunk))),
    end: () => emit(stream.push(decoder.end()) + stream.end()),
  };
}
