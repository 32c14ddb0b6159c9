import { GatewayError, type PartialFile } from '../core/index.js';

/** PDF readers accept the `%PDF-` header anywhere in the first 1024 bytes (ISO 32000, implementation note). */
const HEADER_WINDOW = 1024;

/**
 * Refuses a downloaded "PDF" whose bytes are not one: providers often answer an error, captcha or
 * sign-in page as HTML with status 200, which would otherwise be saved as `<name>.pdf` and only
 * fail at extraction. The error's `not_pdf` reason discards the part file (a retry would get the same).
 */
export async function requirePdfHeader(part: PartialFile): Promise<void> {
  const head: Uint8Array[] = [];
  let have = 0;
  for await (const chunk of part.existing()) {
    head.push(chunk);
    have += chunk.length;
    if (have >= HEADER_WINDOW) break;
  }
  const start = Buffer.concat(head).subarray(0, HEADER_WINDOW);
  if (start.includes('%PDF-')) return;
  const preview = start.subarray(0, 60).toString('latin1').replace(/[^\x20-\x7e]+/g, ' ').trim();
  throw new GatewayError(
    'upstream_error',
    `The file server's answer is not a PDF (it begins ${JSON.stringify(preview)}), often an error or sign-in page; nothing was saved. Open the candidate's URL in a browser to see what the provider wants.`,
    { details: { reason: 'not_pdf' } },
  );
}
