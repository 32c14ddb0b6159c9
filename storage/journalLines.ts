/** Tells a sound line's parsed JSON from anything else. */
export type EntryCheck<E> = (value: unknown) => value is E;

/** A sound line: its parsed entry and where its bytes lie in the file. */
export interface SoundLine<E> {
  entry: E;
  offset: number;
  /** Bytes, newline included. */
  length: number;
}

/** A newline-terminated line that did not parse, with sound lines after it. */
export interface SkippedLine {
  offset: number;
  bytes: Buffer;
}

export interface SplitLines<E> {
  lines: Array<SoundLine<E>>;
  /** Where the last sound line ends: the next line is written here. */
  soundBytes: number;
  /** Lines passed over because sound lines follow them (only with `skipDamaged`). */
  skipped: SkippedLine[];
  /** The bytes after the last sound line (a torn or damaged tail) up to the zeros of a reserve, if any. */
  torn?: Buffer;
  /** Length of the whole file, zeros after the last line included. */
  fileBytes: number;
}

/**
 * Splits journal bytes into lines. A line without its newline is torn, and so is everything after
 * the last sound line; zeros at the end are a reserve (Journal's `reserveBytes`), not a tail: a JSON
 * line never holds a NUL byte. A line that does not parse ends the sound lines, unless
 * `skipDamaged`: then, with a sound line after it, it is passed over and the lines after it count.
 * A crash only tears the end of a file, so a bad line before a sound one is damage (a flipped byte,
 * a bad sector), and for lines that stand alone, like the audit's, skipping it keeps every later
 * acknowledged line. A log whose lines depend on each other (SQL to replay in order) must not skip.
 */
export function splitLines<E>(bytes: Buffer, isEntry: EntryCheck<E>, skipDamaged = false): SplitLines<E> {
  const lines: Array<SoundLine<E>> = [];
  const skipped: SkippedLine[] = [];
  let unparsed: SkippedLine[] = [];
  let soundBytes = 0;
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) break;
    const entry = parseEntry(bytes.toString('utf8', start, end), isEntry);
    if (entry !== undefined) {
      lines.push({ entry, offset: start, length: end + 1 - start });
      skipped.push(...unparsed);
      unparsed = [];
      soundBytes = end + 1;
    } else if (skipDamaged) {
      unparsed.push({ offset: start, bytes: bytes.subarray(start, end + 1) });
    } else {
      break;
    }
    start = end + 1;
  }
  let tailEnd = bytes.length;
  while (tailEnd > soundBytes && bytes[tailEnd - 1] === 0) tailEnd -= 1;
  return { lines, soundBytes, skipped, fileBytes: bytes.length, ...(tailEnd > soundBytes ? { torn: bytes.subarray(soundBytes, tailEnd) } : {}) };
}

function parseEntry<E>(line: string, isEntry: EntryCheck<E>): E | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
