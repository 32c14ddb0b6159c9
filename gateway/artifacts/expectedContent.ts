import { GatewayError, type PartialFile } from '../core/index.js';

/** PDF readers accept the `%PDF-` header anywhere in the first 1024 bytes (ISO 32000, implementation note); a web page says what it is as early. */
const HEAD_WINDOW = 1024;
/** How a web page begins, after a byte order mark and white space. */
const WEB_PAGE = /^(?:\uFEFF)?\s*<(?:!doctype\s+html|html)[\s>]/i;
/** Media types whose file may itself be a web page (octet-stream: the source did not know the type). */
const MAY_BE_WEB_PAGE = new Set(['text/html', 'application/xhtml+xml', 'application/octet-stream']);

/**
 * Refuses downloaded bytes that are not the file the candidate announced: providers often answer an
 * error, captcha, maintenance or sign-in page as HTML with status 200, which would otherwise be saved
 * as `<name>.pdf` (only failing at extraction) or `1abc.cif` (failing nowhere). A PDF must have its
 * `%PDF-` header; any other file of a known type may not be a web page, unless the candidate's checksum
 * (`verified`) proved these are its bytes. The error's reason (`not_pdf`, `html_page`) discards the part
 * file (a retry would get the same).
 */
export async function requireExpectedContent(part: PartialFile, expected: { mediaType: string; verified: boolean }): Promise<void> {
  const mediaType = expected.mediaType.toLowerCase();
  const start = await head(part);
  const preview = () => start.subarray(0, 60).toString('latin1').replace(/[^\x20-\x7e]+/g, ' ').trim();
  if (mediaType === 'application/pdf') {
    if (start.includes('%PDF-')) return;
    throw new GatewayError(
      'upstream_error',
      `The file server's answer is not a PDF (it begins ${JSON.stringify(preview())}), often an error or sign-in page; nothing was saved. Open the candidate's URL in a browser to see what the provider wants.`,
      { details: { reason: 'not_pdf' } },
    );
  }
  if (expected.verified || MAY_BE_WEB_PAGE.has(mediaType) || !WEB_PAGE.test(start.toString('latin1'))) return;
  throw new GatewayError(
    'upstream_error',
    `The file server's answer is a web page, not ${mediaType} (it begins ${JSON.stringify(preview())}), often an error, maintenance or sign-in page; nothing was saved. Open the candidate's URL in a browser to see what the provider wants.`,
    { details: { reason: 'html_page' } },
  );
}

/** The part file's first HEAD_WINDOW bytes (fewer when it is shorter). */
async function head(part: PartialFile): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let have = 0;
  for await (const chunk of part.existing()) {
    chunks.push(chunk);
    have += chunk.length;
    if (have >= HEAD_WINDOW) break;
  }
  return Buffer.concat(chunks).subarray(0, HEAD_WINDOW);
}
