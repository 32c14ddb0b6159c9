import type { ListResourcesResult, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, parseWorkspaceResourceUri, workspaceResourceUri, type EventHub, type SessionWorkspace, type WorkspaceFile } from '../core/index.js';

/** Largest piece of a file one resources/read returns, in bytes; bigger files are read in ranges. */
export const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * Media types of the files sources offer and agents upload, by extension. A short table rather
 * than a dependency: the workspace holds the kinds the catalog names (pdf, fasta, mmcif, sdf, …).
 */
const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', json: 'application/json', csv: 'text/csv', tsv: 'text/tab-separated-values',
  xml: 'application/xml', html: 'text/html', fasta: 'text/x-fasta', fa: 'text/x-fasta', cif: 'chemical/x-mmcif', mmcif: 'chemical/x-mmcif',
  pdb: 'chemical/x-pdb', sdf: 'chemical/x-mdl-sdfile', gz: 'application/gzip', zip: 'application/zip', png: 'image/png', jpg: 'image/jpeg',
};

function mediaTypeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return MEDIA_TYPES[ext] ?? 'application/octet-stream';
}

function isText(mediaType: string): boolean {
  return mediaType.startsWith('text/') || mediaType === 'application/json' || mediaType === 'application/xml' || mediaType === 'chemical/x-mmcif' || mediaType === 'chemical/x-pdb';
}

/** A Session's workspace files as MCP resources (GATEWAY.md §3): completed downloads, uploads, extraction outputs. */
export interface WorkspaceResources {
  list(): Promise<ListResourcesResult>;
  read(uri: string): Promise<ReadResourceResult>;
  /** Calls `listener` when a file lands in this Session's workspace; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export function workspaceResources(deps: { workspace: SessionWorkspace; events?: EventHub }, sessionId: string): WorkspaceResources {
  const toResource = (file: WorkspaceFile): Resource => ({
    uri: workspaceResourceUri(sessionId, file.path),
    name: file.path,
    title: file.path.slice(file.path.lastIndexOf('/') + 1),
    mimeType: mediaTypeOf(file.path),
    size: file.sizeBytes,
  });
  return {
    list: async () => ({ resources: (await deps.workspace.list(sessionId)).map(toResource) }),
    read: (uri) => readFile(deps.workspace, sessionId, uri),
    onChange: (listener) =>
      deps.events?.subscribe((event) => {
        if (event.type === 'workspace.file' && event.sessionId === sessionId) listener();
      }) ?? (() => {}),
  };
}

/**
 * One read: the whole file when it is small, else one range of at most MAX_READ_BYTES
 * (`?offset=&length=` on the URI; without them the first range), never the whole file in memory.
 * `_meta["scigate/range"]` says which bytes came back and where the next range starts.
 */
async function readFile(workspace: SessionWorkspace, sessionId: string, uri: string): Promise<ReadResourceResult> {
  const [base, query = ''] = uri.split('?', 2) as [string, string?];
  const named = parseWorkspaceResourceUri(base);
  if (!named || named.sessionId !== sessionId) {
    throw new GatewayError('not_found', `No resource ${uri.slice(0, 200)} in this session; list the resources first.`);
  }
  const file = await workspace.stat(sessionId, named.path);
  if (!file) throw new GatewayError('not_found', `No file ${named.path.slice(0, 200)} in this session's workspace; list the resources first.`);
  const params = new URLSearchParams(query);
  const offset = rangeParameter(params, 'offset', 0) ?? 0;
  const length = Math.min(MAX_READ_BYTES, rangeParameter(params, 'length', 1) ?? MAX_READ_BYTES);
  const bytes = await workspace.read(sessionId, named.path, { offset, length });
  const mimeType = mediaTypeOf(named.path);
  const whole = offset === 0 && bytes.length === file.sizeBytes;
  const end = offset + bytes.length;
  const range = { offset, length: bytes.length, totalBytes: file.sizeBytes, ...(end < file.sizeBytes ? { next: `${base}?offset=${end}&length=${MAX_READ_BYTES}` } : {}) };
  const content = whole && isText(mimeType) ? { uri, mimeType, text: bytes.toString('utf8') } : { uri, mimeType, blob: bytes.toString('base64') };
  return { contents: [content], ...(whole ? {} : { _meta: { 'scigate/range': range } }) };
}

/** `?offset=` or `?length=`: a whole number of bytes of at least `least`, or absent; anything else is refused, not read as 0. */
function rangeParameter(params: URLSearchParams, name: 'offset' | 'length', least: number): number | undefined {
  const text = params.get(name);
  if (text === null) return undefined;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least)) {
    throw new GatewayError('invalid_input', `The resource URI's ${name} must be a whole number of bytes${least > 0 ? ` of at least ${least}` : ''}, not ${JSON.stringify(text.slice(0, 40))}; _meta["scigate/range"].next names the next range.`, {
      details: { field: name },
    });
  }
  return value;
}
