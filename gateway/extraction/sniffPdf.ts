/** Where the PDF header may start: readers accept leading junk within the first 1,024 bytes. */
const HEADER_WINDOW = 1024;
/** Where the end-of-file marker must be: within the last 1,024 bytes (trailing junk after it is common). */
const TRAILER_WINDOW = 1024;

function indexOfAscii(bytes: Uint8Array, ascii: string, from: number, to: number): number {
  const needle = Buffer.from(ascii, 'latin1');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(from, to).indexOf(needle);
}

/** True when the bytes start like a PDF (`%PDF-`), whatever the file is named or claims to be. */
export function isPdfMagic(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '%PDF-', 0, Math.min(bytes.length, HEADER_WINDOW)) >= 0;
}

/** True when the PDF ends with its `%%EOF` marker; a download cut short does not. */
export function hasEofMarker(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '%%EOF', Math.max(0, bytes.length - TRAILER_WINDOW), bytes.length) >= 0;
}
