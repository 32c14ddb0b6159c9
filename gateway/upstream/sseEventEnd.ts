/**
 * Follows an SSE byte stream one byte at a time and tells where each event ends: at a blank line
 * (`\n\n`, `\r\r` or `\r\n\r\n`), the last byte of which answers true. Keeps its state across chunks.
 */
export function sseEventEnd(): (byte: number) => boolean {
  let lineBytes = 0;
  let afterCr = false;
  return (byte) => {
    const secondHalfOfCrlf = byte === 0x0a && afterCr;
    afterCr = byte === 0x0d;
    if (secondHalfOfCrlf) return false;
    if (byte !== 0x0a && byte !== 0x0d) {
      lineBytes += 1;
      return false;
    }
    const blank = lineBytes === 0;
    lineBytes = 0;
    return blank;
  };
}
