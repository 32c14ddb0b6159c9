/** One link of an RFC 8288 `Link` header. */
export interface WebLink {
  url: string;
  rel: string[];
}

/**
 * Parses an RFC 8288 `Link` header. Commas inside `<…>` and quoted parameter values do not split
 * links (UniProt's cursor URLs contain encoded commas in their `fields` list).
 */
export function parseLinkHeader(header: string | null): WebLink[] {
  if (!header) return [];
  const links: WebLink[] = [];
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const match of header.matchAll(pattern)) {
    const rel = relOf(match[2] ?? '');
    links.push({ url: match[1]!.trim(), rel });
  }
  return links;
}

/** The URL of the `rel="next"` link, if any. */
export function nextLinkUrl(header: string | null): string | undefined {
  return parseLinkHeader(header).find((link) => link.rel.includes('next'))?.url;
}

function relOf(params: string): string[] {
  const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
  const value = rel?.[1] ?? rel?.[2] ?? '';
  return value.toLowerCase().split(/\s+/).filter(Boolean);
}
