import { describe, expect, it } from 'vitest';
// The page's labels are a plain browser module (no build step, no types): loaded by URL.
const { byteSize, progressText }: any = await import(new URL('../../../admin/page/js/labels.js', import.meta.url).href);

describe('byte counts on the admin page', () => {
  it('reads as people read file sizes', () => {
    expect(byteSize(0)).toBe('0 bytes');
    expect(byteSize(999)).toBe('999 bytes');
    expect(byteSize(48_200)).toBe('48.2 kB');
    expect(byteSize(3_000_000)).toBe('3.0 MB');
    expect(byteSize(1_234_000_000)).toBe('1.2 GB');
  });

  it('words a transfer with or without its total', () => {
    expect(progressText(1_048_576, 3_000_000)).toBe('1.0 MB of 3.0 MB');
    expect(progressText(512, undefined)).toBe('512 bytes');
  });
});
