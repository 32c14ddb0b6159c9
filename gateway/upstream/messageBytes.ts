/**
 * The wire bound for a source whose results may be `maxResponseBytes` long: twice that plus 1 MiB,
 * because the JSON-RPC framing adds to a result and some servers escape every non-ASCII character
 * (`\u00e9` for é), so a result within the limit can take more bytes on the wire than it measures.
 */
export function messageBytesFor(maxResponseBytes: number): number {
  return 2 * maxResponseBytes + 1024 * 1024;
}
