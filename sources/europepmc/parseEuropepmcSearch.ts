import { z } from 'zod';
import { ProviderError } from '../shared/providerError.js';
import { parseShape } from '../shared/parseShape.js';

const flag = z.string().optional();

const fullTextUrlSchema = z.object({
  availability: z.string().optional(),
  availabilityCode: z.string().optional(),
  documentStyle: z.string().optional(),
  site: z.string().optional(),
  url: z.string(),
});

const resultSchema = z.object({
  id: z.string(),
  source: z.string(),
  pmid: z.string().optional(),
  pmcid: z.string().optional(),
  doi: z.string().optional(),
  title: z.string().optional(),
  authorString: z.string().optional(),
  authorList: z.object({ author: z.array(z.object({ fullName: z.string().optional(), collectiveName: z.string().optional() })).optional() }).optional(),
  journalTitle: z.string().optional(),
  journalVolume: z.string().optional(),
  issue: z.string().optional(),
  journalInfo: z
    .object({
      volume: z.string().optional(),
      issue: z.string().optional(),
      journal: z.object({ title: z.string().optional(), isoabbreviation: z.string().optional(), medlineAbbreviation: z.string().optional() }).optional(),
    })
    .optional(),
  bookOrReportDetails: z.object({ publisher: z.string().optional() }).optional(),
  pubYear: z.string().optional(),
  pageInfo: z.string().optional(),
  pubType: z.string().optional(),
  pubTypeList: z.object({ pubType: z.array(z.string()).optional() }).optional(),
  abstractText: z.string().optional(),
  license: z.string().optional(),
  isOpenAccess: flag,
  inPMC: flag,
  hasPDF: flag,
  citedByCount: z.number().optional(),
  firstPublicationDate: z.string().optional(),
  meshHeadingList: z.object({ meshHeading: z.array(z.object({ descriptorName: z.string().optional() })).optional() }).optional(),
  keywordList: z.object({ keyword: z.array(z.string()).optional() }).optional(),
  fullTextUrlList: z.object({ fullTextUrl: z.array(fullTextUrlSchema).optional() }).optional(),
});

const searchSchema = z.object({
  version: z.string().optional(),
  hitCount: z.number().int().min(0).optional(),
  nextCursorMark: z.string().optional(),
  request: z.object({ cursorMark: z.string().optional() }).optional(),
  resultList: z.object({ result: z.array(resultSchema) }).optional(),
  errMsg: z.string().optional(),
});

/** One Europe PMC search result (lite or core; core adds abstract, license, MeSH and full-text links). */
export type EuropepmcResult = z.output<typeof resultSchema>;
/** One full-text link of a core result (documentStyle pdf|html|doi, availabilityCode OA|F|S). */
export type EuropepmcFullTextUrl = z.output<typeof fullTextUrlSchema>;

/** A page of results with the cursor to the next one. */
export interface EuropepmcPage {
  hitCount: number;
  results: EuropepmcResult[];
  /** Absent on the last page (Europe PMC then omits it or repeats the cursor that was sent). */
  nextCursorMark?: string;
}

/**
 * Reads a search answer. Europe PMC answers an unknown cursor (and, now and then, a valid request)
 * with HTTP 200 and only `{"version": …}`: with a cursor from an earlier page that is the caller's
 * input; on the first page it is the provider's hiccup, worth a retry.
 */
export function parseEuropepmcSearch(json: unknown, sentCursor: string): EuropepmcPage {
  const answer = parseShape(searchSchema, json, 'Europe PMC', 'search answer');
  if (!answer.resultList || answer.hitCount === undefined) {
    const reason = answer.errMsg ? `: ${answer.errMsg}` : '';
    if (sentCursor !== '*') {
      throw new ProviderError('invalid_input', `cursorMark: Europe PMC did not accept this cursor${reason}; start again from "*"`);
    }
    throw new ProviderError('upstream_error', `Europe PMC answered without a result list${reason}`, { retryable: true });
  }
  const results = answer.resultList.result;
  const next = answer.nextCursorMark;
  const page: EuropepmcPage = { hitCount: answer.hitCount, results };
  if (next && next !== sentCursor && results.length > 0) page.nextCursorMark = next;
  return page;
}
