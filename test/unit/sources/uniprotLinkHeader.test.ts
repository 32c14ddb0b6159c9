import { describe, expect, it } from 'vitest';
import { nextLinkUrl, parseLinkHeader } from '../../../sources/shared/linkHeader.js';

// UniProt's documented form: the next page only in `Link`, its URL carrying commas in `fields`.
const UNIPROT_NEXT =
  'https://rest.uniprot.org/uniprotkb/search?fields=accession,id,length&format=json&query=insulin&cursor=1mkycb2xwxbouw6ng8b2zw&size=2';

describe('Link header parsing (UniProt cursor paging)', () => {
  it('finds rel="next" even when the URL contains commas and semicolons', () => {
    expect(nextLinkUrl(`<${UNIPROT_NEXT}>; rel="next"`)).toBe(UNIPROT_NEXT);
    expect(nextLinkUrl(`<https://x.org/a;b>; rel="prev", <${UNIPROT_NEXT}>; title="p, 2"; rel=next`)).toBe(UNIPROT_NEXT);
  });

  it('reads every link with all of its relation types', () => {
    expect(parseLinkHeader('<https://a.org/1>; rel="prev first", <https://a.org/3>; rel="last"')).toEqual([
      { url: 'https://a.org/1', rel: ['prev', 'first'] },
      { url: 'https://a.org/3', rel: ['last'] },
    ]);
  });

  it('has no next page without a header or without rel="next"', () => {
    expect(nextLinkUrl(null)).toBeUndefined();
    expect(nextLinkUrl('')).toBeUndefined();
    expect(nextLinkUrl('<https://a.org/1>; rel="prev"')).toBeUndefined();
    expect(nextLinkUrl('garbage without brackets; rel="next"')).toBeUndefined();
  });
});
