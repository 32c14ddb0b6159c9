import type { PdfInfo } from './pdfTextItems.js';

/** What the manifest says about the paper itself; `null` where the PDF does not tell. */
export interface PaperMetadata {
  title: string | null;
  authors: string[];
  doi: string | null;
  /** Where the DOI was found. */
  doiSource: 'metadata' | 'first_page' | null;
  /** ISO 8601. */
  creationDate: string | null;
}

/** A DOI (Crossref's recommended pattern), ending before whitespace or closing punctuation. */
const DOI = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;

/** The first DOI in `text`, without trailing sentence punctuation. */
export function findDoi(text: string): string | null {
  const match = DOI.exec(text);
  if (!match) return null;
  let doi = match[1]!.replace(/[.,;:\]}'’]+$/, '');
  // DOIs may hold parentheses ("…(2)…"); only a closing one without its opening one is punctuation.
  while (doi.endsWith(')') && doi.split('(').length < doi.split(')').length) doi = doi.slice(0, -1).replace(/[.,;:]+$/, '');
  return doi;
}

/** "Ada Lovelace; Alan Turing", "A. Lovelace and A. Turing", "Lovelace, Turing" → one name each. */
export function splitAuthors(author: string | undefined): string[] {
  if (!author?.trim()) return [];
  const separator = author.includes(';') ? /;/ : /,|\band\b|&/;
  return author.split(separator).map((a) => a.trim()).filter(Boolean);
}

/** PDF date strings (`D:YYYYMMDDHHmmSSOHH'mm'`, each part after the year optional) → ISO 8601, or null. */
export function parsePdfDate(value: string | undefined): string | null {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Z+-])?(\d{2})?'?(\d{2})?'?/.exec(value?.trim() ?? '');
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offsetMin = !sign || sign === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : null;
}

/** DOI-bearing XMP properties: prism:doi, pdfx:doi, dc:identifier. */
const XMP_DOI = /<(?:prism|pdfx):doi>([^<]+)<|<dc:identifier>([\s\S]*?)<\/dc:identifier>/i;

/** Title, authors, DOI (metadata first, then page 1) and creation date of a PDF. */
export function paperMetadata(info: PdfInfo, xmp: string | null, firstPageText: string): PaperMetadata {
  const fromInfo = findDoi([info.doi, info.DOI, info.Subject, info.Keywords, info.Title].filter(Boolean).join(' '));
  const xmpMatch = xmp ? XMP_DOI.exec(xmp) : null;
  const fromXmp = xmpMatch ? findDoi(xmpMatch[1] ?? xmpMatch[2] ?? '') : null;
  const metadataDoi = fromInfo ?? fromXmp;
  const pageDoi = metadataDoi ? null : findDoi(firstPageText);
  return {
    title: info.Title?.trim() || null,
    authors: splitAuthors(info.Author),
    doi: metadataDoi ?? pageDoi,
    doiSource: metadataDoi ? 'metadata' : pageDoi ? 'first_page' : null,
    creationDate: parsePdfDate(info.CreationDate),
  };
}
