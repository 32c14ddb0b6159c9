import { describe, expect, it } from 'vitest';
import { BoundedLineReader } from '../../../gateway/core/index.js';

function collect(reader: BoundedLineReader, chunks: Buffer[]) {
  const events: Array<string | { overflow: number }> = [];
  for (const chunk of chunks) reader.push(chunk, { line: (text) => events.push(text), overflow: (bytes) => events.push({ overflow: bytes }) });
  return events;
}

describe('BoundedLineReader', () => {
  it('splits lines across chunk boundaries and strips \\r\\n', () => {
    const reader = new BoundedLineReader(100);
    expect(collect(reader, [Buffer.from('{"a":'), Buffer.from('1}\r\n{"b"'), Buffer.from(':2}\n')])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reports an over-long line once, skips the rest of it and goes on with the next line', () => {
    const reader = new BoundedLineReader(10);
    const events = collect(reader, [Buffer.from('a'.repeat(8)), Buffer.from('b'.repeat(8)), Buffer.from('c'.repeat(50)), Buffer.from('\nok\n')]);
    expect(events).toEqual([{ overflow: 16 }, 'ok']);
  });

  it('never throws and never delivers a line over the limit, for 500 random byte streams', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 500; run++) {
      const limit = 1 + random(40);
      // Bytes biased towards newlines so that short and long lines both occur.
      const chunks = Array.from({ length: random(20) }, () => Buffer.from(Array.from({ length: random(64) }, () => (random(8) === 0 ? 0x0a : random(128)))));
      const reader = new BoundedLineReader(limit);
      const events = collect(reader, chunks);
      for (const event of events) if (typeof event === 'string') expect(Buffer.byteLength(event)).toBeLessThanOrEqual(limit);
      const completed = Buffer.concat(chunks).filter((b) => b === 0x0a).length;
      expect(events.length).toBeLessThanOrEqual(completed + 1);
    }
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new BoundedLineReader(0)).toThrow(/maxLineBytes/);
  });
});
