/** One run of text pdf.js found on a page, in PDF user space (origin bottom-left, points). */
export interface TextItem {
  str: string;
  /** Baseline start. */
  x: number;
  y: number;
  width: number;
  fontSize: number;
  /** Index into the page's `fonts`. */
  font: number;
}

/** One page as the worker reports it. */
export interface RawPage {
  /** 1-based. */
  page: number;
  width: number;
  height: number;
  items: TextItem[];
  /** Font labels, indexed by `TextItem.font`. */
  fonts: string[];
}

/** The document information dictionary entries extraction reads (all optional strings). */
export type PdfInfo = Partial<Record<'Title' | 'Author' | 'Subject' | 'Keywords' | 'CreationDate' | 'doi' | 'DOI', string>>;

/** Everything the worker read from one PDF. */
export interface RawDocument {
  pageCount: number;
  info: PdfInfo;
  /** The XMP metadata packet, when the PDF has one. */
  xmp: string | null;
  pages: RawPage[];
}
