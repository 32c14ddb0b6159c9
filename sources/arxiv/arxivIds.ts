const NEW_STYLE = /^(\d{4})\.(\d{4,5})(v\d+)?$/;
const OLD_STYLE = /^([a-z-]+(?:\.[A-Z]{2})?)\/(\d{7})(v\d+)?$/;

/** An arXiv id split into its versionless form and optional version. */
export interface ArxivId {
  base: string;
  version?: string;
}

/** Parses an arXiv id (new or old style, `arXiv:` prefix and version allowed); undefined when malformed. */
export function parseArxivId(input: string): ArxivId | undefined {
  const id = input.trim().replace(/^arxiv:/i, '');
  const match = NEW_STYLE.exec(id) ?? OLD_STYLE.exec(id);
  if (!match) return undefined;
  const base = `${match[1]}${id.includes('/') ? '/' : '.'}${match[2]}`;
  return match[3] ? { base, version: match[3] } : { base };
}

/** The id as arXiv prints it, with version when known. */
export function formatArxivId(id: ArxivId): string {
  return `${id.base}${id.version ?? ''}`;
}

/** Reads the id out of an entry's `<id>` URL (`http://arxiv.org/abs/2104.12255v1`). */
export function arxivIdFromEntryUrl(url: string): ArxivId | undefined {
  const match = /arxiv\.org\/abs\/(.+)$/.exec(url.trim());
  return match ? parseArxivId(match[1]!) : undefined;
}
