/** What a BoundedLineReader reports while it splits bytes into lines. */
export interface LineSink {
  /** A complete line (without its `\n` or `\r\n`), decoded as UTF-8. */
  line(text: string): void;
  /** A line grew past the limit; called once per such line, with the bytes seen so far. Its rest is skipped. */
  overflow(bytesSoFar: number): void;
}

/**
 * Splits a byte stream into newline-delimited lines of at most `maxLineBytes` bytes. Unlike the
 * SDK's ReadBuffer it never throws and never holds more than one line's worth of bytes: a longer
 * line is reported once and then dropped up to its newline, so a peer cannot grow our memory.
 */
export class BoundedLineReader {
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(private readonly maxLineBytes: number) {
    if (!Number.isInteger(maxLineBytes) || maxLineBytes <= 0) throw new RangeError('maxLineBytes must be a positive integer');
  }

  /** Feeds one chunk; complete lines and overflows go to `sink` in stream order. */
  push(chunk: Buffer, sink: LineSink): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end), sink);
      if (newline === -1) return;
      this.endLine(sink);
      start = newline + 1;
    }
  }

  /** Forgets any partial line. */
  clear(): void {
    this.parts = [];
    this.pendingBytes = 0;
    this.skipping = false;
  }

  private take(piece: Buffer, sink: LineSink): void {
    if (this.skipping || piece.length === 0) return;
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.maxLineBytes) {
      const seen = this.pendingBytes;
      this.clear();
      this.skipping = true;
      sink.overflow(seen);
      return;
    }
    this.parts.push(piece);
  }

  private endLine(sink: LineSink): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const text = Buffer.concat(this.parts, this.pendingBytes).toString('utf8');
    this.clear();
    sink.line(text.endsWith('\r') ? text.slice(0, -1) : text);
  }
}
