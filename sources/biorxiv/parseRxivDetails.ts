import { z } from 'zod';
import { ProviderError } from '../shared/providerError.js';
import { parseShape } from '../shared/parseShape.js';

const text = z.union([z.string(), z.number()]).transform(String);

const itemSchema = z.object({
  doi: z.string(),
  title: z.string().optional(),
  authors: z.string().optional(),
  author_corresponding: z.string().optional(),
  author_corresponding_institution: z.string().optional(),
  date: z.string().optional(),
  version: text,
  type: z.string().optional(),
  license: z.string().optional(),
  category: z.string().optional(),
  jatsxml: z.string().optional(),
  abstract: z.string().optional(),
  published: z.string().optional(),
  server: z.string().optional(),
  // "NA" in older records, a list of funder objects in newer ones.
  funder: z.union([z.string(), z.array(z.object({ name: z.string().optional() }).passthrough())]).optional(),
});

const detailsSchema = z.object({
  messages: z
    .array(
      z.object({
        status: z.string().optional(),
        category: z.string().optional(),
        cursor: text.optional(),
        count: text.optional(),
        total: text.optional(),
      }),
    )
    .optional(),
  collection: z.array(itemSchema).optional(),
});

/** One preprint version as api.biorxiv.org lists it. */
export type RxivItem = z.output<typeof itemSchema>;

/** A `details` answer: the items, and for date intervals the paging counters (sent as strings). */
export interface RxivDetails {
  items: RxivItem[];
  /** True when the API said "no posts found" (an unknown DOI or an empty interval). */
  noPosts: boolean;
  /** The category the API applied ("all" when it ignored an unknown one). */
  category?: string;
  cursor?: number;
  total?: number;
}

/** Reads a `details` answer; every status other than "ok" / "no posts found" comes inside HTTP 200 and is an error. */
export function parseRxivDetails(json: unknown, provider: string): RxivDetails {
  const answer = parseShape(detailsSchema, json, provider, 'details answer');
  const message = answer.messages?.[0];
  const status = message?.status?.trim() ?? '';
  const noPosts = /^no posts found/i.test(status);
  if (!noPosts && status.toLowerCase() !== 'ok') {
    throw new ProviderError('invalid_input', `${provider} rejected the request: ${status || 'no status in the answer'}`);
  }
  const details: RxivDetails = { items: answer.collection ?? [], noPosts };
  if (message?.category) details.category = message.category;
  const cursor = Number(message?.cursor);
  const total = Number(message?.total);
  if (message?.cursor !== undefined && Number.isSafeInteger(cursor)) details.cursor = cursor;
  if (message?.total !== undefined && Number.isSafeInteger(total)) details.total = total;
  return details;
}
