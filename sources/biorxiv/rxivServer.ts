import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SourceManifest } from '../../catalog/index.js';
import type { JsonValue, McpRecord, McpToolResult } from '../../catalog/index.js';
import { envelope } from '../shared/envelope.js';
import { fetchJson } from '../shared/fetchJson.js';
import { ProviderError } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { parseRxivDetails, type RxivDetails, type RxivItem } from './parseRxivDetails.js';
import { requireCategory, requireDate, requireRxivDoi, type RxivDoi, type RxivServer } from './rxivIds.js';
import { rxivPdfCandidate, rxivRecord } from './rxivRecords.js';

/** api.biorxiv.org serves both servers; `deps.baseUrl` replaces it (mirrors, loopback tests). */
export const RXIV_API_BASE_URL = 'https://api.biorxiv.org';

const getInput = {
  doi: z.string().trim().min(1).max(200).describe(
    'preprint DOI, e.g. 10.1101/2020.06.11.145425 (doi.org and content URLs accepted); a version (…v2) still returns every version, the named one marked',
  ),
};

const listInput = {
  from: z.string().trim().max(10).describe('first posting date, YYYY-MM-DD'),
  to: z.string().trim().max(10).describe('last posting date, YYYY-MM-DD'),
  category: z.string().trim().max(60).optional().describe('subject category, e.g. "cell biology"'),
  cursor: z.number().int().min(0).max(10_000_000).default(0).describe('item offset; pass the nextCursor of the previous page'),
};

/** What differs between the bioRxiv and medRxiv sources built on the one api.biorxiv.org client. */
export interface RxivSourceOptions {
  manifest: SourceManifest;
  server: RxivServer;
  /** Provider name in messages ("bioRxiv"). */
  provider: string;
}

/** A bioRxiv or medRxiv source as an MCP server: `get` by DOI and `list` by posting-date interval (there is no keyword search). */
export function createRxivServer(deps: SourceDeps, options: RxivSourceOptions): McpServer {
  const server = new McpServer({ name: `scigate-${options.server}`, version: options.manifest.version });
  const base = (deps.baseUrl ?? RXIV_API_BASE_URL).replace(/\/+$/, '');
  const details = async (path: string, signal: AbortSignal): Promise<RxivDetails> => {
    const { json } = await fetchJson(deps, `${base}/details/${options.server}/${path}`, { provider: options.provider, signal });
    return parseRxivDetails(json, options.provider);
  };
  const [getTool, listTool] = [toolOf(options.manifest, 'get'), toolOf(options.manifest, 'list')];
  server.registerTool('get', { title: getTool.title, description: getTool.description, inputSchema: getInput }, (args, extra) =>
    runTool(async () => {
      const asked = requireRxivDoi(args.doi, 'doi');
      return getResult(deps, options, asked, await details(`${asked.doi}/na/json`, extra.signal));
    }),
  );
  server.registerTool('list', { title: listTool.title, description: listTool.description, inputSchema: listInput }, (args, extra) =>
    runTool(async () => {
      const request = listRequest(args);
      return listResult(deps, options, request, await details(request.path, extra.signal));
    }),
  );
  return server;
}

/**
 * Every version of the DOI, as the tool promises, even when the caller named one: the named version
 * is marked (`data.requestedVersion`, `fields.requested` on its record), and a version the preprint
 * does not have is warned about rather than silently answered with the others.
 */
function getResult(deps: SourceDeps, options: RxivSourceOptions, asked: RxivDoi, answer: RxivDetails): McpToolResult {
  // Every version is its own item; the newest first, since that is the one a reader wants.
  const versions = answer.items
    .filter((item) => item.doi.toLowerCase() === asked.doi.toLowerCase())
    .sort((a, b) => Number(b.version) - Number(a.version));
  const numbers = versions.map((item) => Number(item.version));
  const requested: Record<string, JsonValue> = asked.version !== undefined ? { requestedVersion: asked.version } : {};
  return envelope(options.manifest, 'get', deps, {
    records: versions.map((item) => markRequested(rxivRecord(options.server, item), asked.version)),
    artifacts: versions.map((item) => rxivPdfCandidate(options.server, item)),
    warnings: versionWarnings(options.provider, asked, numbers),
    data: { versions: versions.length, latestVersion: numbers[0] ?? null, ...requested },
  });
}

function markRequested(record: McpRecord, version: number | undefined): McpRecord {
  const fields = record.fields as Record<string, JsonValue>;
  return version !== undefined && fields.version === version ? { ...record, fields: { ...fields, requested: true } } : record;
}

/** A DOI with no version at all, or a named version the preprint does not have (its versions are listed instead). */
function versionWarnings(provider: string, asked: RxivDoi, numbers: number[]): string[] {
  const named = asked.version !== undefined ? `v${asked.version}` : '';
  if (numbers.length === 0) return [`${provider} has no preprint with DOI ${asked.doi}${named ? ` (asked for ${named})` : ''}`];
  if (!named || numbers.includes(asked.version!)) return [];
  const existing = numbers.map((n) => `v${n}`).join(', ');
  return [`${provider} has no ${named} of ${asked.doi}; it has ${existing}, all listed here, newest first`];
}

interface ListRequest {
  path: string;
  cursor: number;
  category?: string;
}

/** Dates, their order and the category are checked before any request. */
function listRequest(args: { from: string; to: string; category?: string; cursor: number }): ListRequest {
  const from = requireDate(args.from, 'from');
  const to = requireDate(args.to, 'to');
  if (from > to) throw new ProviderError('invalid_input', `to: ${to} is before from: ${from}`);
  const category = args.category ? requireCategory(args.category, 'category') : undefined;
  const query = category ? `?${new URLSearchParams({ category })}` : '';
  return { path: `${from}/${to}/${args.cursor}/json${query}`, cursor: args.cursor, ...(category ? { category } : {}) };
}

function listResult(deps: SourceDeps, options: RxivSourceOptions, request: ListRequest, answer: RxivDetails): McpToolResult {
  const items = answer.items;
  const cursor = answer.cursor ?? request.cursor;
  // Page sizes have changed (100, then 30); step by what actually came back.
  const next = cursor + items.length;
  const total = answer.total ?? null;
  return envelope(options.manifest, 'list', deps, {
    records: items.map((item) => rxivRecord(options.server, item)),
    artifacts: items.map((item) => rxivPdfCandidate(options.server, item)),
    warnings: categoryWarnings(options.provider, request.category, answer, items),
    data: { total, cursor, returned: items.length, nextCursor: items.length > 0 && total !== null && next < total ? next : null },
  });
}

/** The API ignores a category it does not know and lists every category instead; say so. */
function categoryWarnings(provider: string, asked: string | undefined, answer: RxivDetails, items: RxivItem[]): string[] {
  if (!asked) return [];
  const applied = answer.category?.toLowerCase().replace(/\s+/g, '_');
  const foreign = items.some((item) => item.category && item.category.toLowerCase().replace(/\s+/g, '_') !== asked);
  return applied === 'all' || foreign
    ? [`${provider} did not apply the category "${asked}" (unknown or misspelled), so all categories are listed`]
    : [];
}

function toolOf(manifest: SourceManifest, id: string) {
  const tool = manifest.tools.find((t) => t.id === id);
  if (!tool) throw new Error(`The ${manifest.id} manifest has no "${id}" tool`);
  return tool;
}
