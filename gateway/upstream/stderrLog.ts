import { StringDecoder } from 'node:string_decoder';
import type { Logger, SecretScrubber } from '../core/index.js';

/** Longest stderr text in one log line. */
const MAX_LOGGED_CHARS = 2000;

/** How much of the start and of the end of a child's stderr is kept to explain its exit. */
const KEPT_CHARS = 300;

/** Where a stdio child's stderr goes: debug log lines, written chunk by chunk and ended with the child. */
export interface StderrLog {
  write(chunk: Buffer): void;
  end(): void;
  /** What it wrote (scrubbed): all of it when short, else its start and its end (where runtimes put the error). */
  summary(): string;
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
  let start = '';
  let end = '';
  let written = 0;
  const emit = (text: string) => {
    if (text.length === 0) return;
    log.debug({ pid, stderr: text.slice(0, MAX_LOGGED_CHARS) }, 'upstream stderr');
    if (start.length < KEPT_CHARS) start += text.slice(0, KEPT_CHARS - start.length);
    end = (end + text).slice(-KEPT_CHARS);
    written += text.length;
  };
  return {
    write: (chunk) => emit(stream.push(decoder.write(chunk))),
    end: () => emit(stream.push(decoder.end()) + stream.end()),
    summary: () => (written <= KEPT_CHARS ? end : written <= 2 * KEPT_CHARS ? start + end.slice(KEPT_CHARS - (written - KEPT_CHARS)) : `${start} … ${end}`),
  };
}
