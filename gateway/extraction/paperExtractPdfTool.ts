import type { NativeTool } from '../broker/index.js';
import type { PaperExtractions } from './paperExtractions.js';

/** The tool's name (seed §6.3): listed beside the sources' tools, whatever the tool prefix. */
export const PAPER_EXTRACT_PDF_TOOL = 'paper_extract_pdf';

const inputSchema = {
  type: 'object',
  properties: {
    artifactJobId: { type: 'string', minLength: 1, maxLength: 200, description: 'The jobId of a completed artifact_download of this session whose file is a PDF.' },
    path: { type: 'string', minLength: 1, maxLength: 1024, description: 'A PDF already in this session\'s workspace (downloaded or uploaded), relative to it.' },
  },
  oneOf: [{ required: ['artifactJobId'] }, { required: ['path'] }],
  additionalProperties: false,
} as const;

const warning = {
  type: 'object',
  properties: {
    code: { type: 'string' }, message: { type: 'string' }, pages: { type: 'array', items: { type: 'integer' } }, fonts: { type: 'array', items: { type: 'string' } },
  },
  required: ['code', 'message', 'pages'],
} as const;

const nullableString = { type: ['string', 'null'] } as const;

const outputSchema = {
  type: 'object',
  properties: {
    status: { const: 'completed' },
    reused: { type: 'boolean', description: 'True when these bytes were extracted before in this session and that extraction is returned.' },
    extractionId: { type: 'string' },
    acquisitionId: { type: 'string' },
    pdfPath: { type: 'string' },
    textPath: { type: 'string', description: 'Session-relative path of the text; pages are separated by form feeds (U+000C).' },
    textResourceUri: { type: 'string', description: 'Read the whole text with resources/read on this URI.' },
    manifestPath: { type: 'string' },
    manifestResourceUri: { type: 'string' },
    pageCount: { type: 'integer', minimum: 0 },
    characterCount: { type: 'integer', minimum: 0 },
    warnings: { type: 'array', items: warning },
    metadata: {
      type: 'object',
      properties: {
        title: nullableString, authors: { type: 'array', items: { type: 'string' } }, doi: nullableString,
        doiSource: { enum: ['metadata', 'first_page', null] }, creationDate: nullableString,
      },
      required: ['title', 'authors', 'doi', 'doiSource', 'creationDate'],
    },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    textPreview: { type: 'string', description: 'The first ~2,000 characters of the text.' },
    textTruncated: { type: 'boolean' },
    invocationId: { type: 'string' },
  },
  required: [
    'status', 'reused', 'extractionId', 'acquisitionId', 'pdfPath', 'textPath', 'textResourceUri', 'manifestPath', 'manifestResourceUri', 'pageCount',
    'characterCount', 'warnings', 'metadata', 'sha256', 'textPreview', 'textTruncated',
  ],
  additionalProperties: false,
} as const;

/** `paper_extract_pdf` as a native tool of the broker: audited like every call, no permission prompt (not dangerous). */
export function paperExtractPdfTool(extractions: PaperExtractions): NativeTool {
  return {
    name: PAPER_EXTRACT_PDF_TOOL,
    title: 'Extract the text of a PDF',
    description:
      'Extracts the text of a PDF in this session\'s workspace, in reading order (two-column pages column by column, running headers and ' +
      'page numbers dropped), into <name>.txt (pages separated by form feeds) and <name>.manifest.json (page offsets, title, authors, DOI, ' +
      'warnings) beside it. Pass artifactJobId (a completed artifact_download) or path (a downloaded or uploaded PDF). Returns both paths as ' +
      'resources and the first ~2,000 characters; the same PDF extracted before in this session returns that extraction.',
    inputSchema: inputSchema as unknown as NativeTool['inputSchema'],
    outputSchema: outputSchema as unknown as NativeTool['outputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (call) => {
      const args = call.arguments as { artifactJobId?: string; path?: string };
      const result = await extractions.extract({
        session: call.session, invocationId: call.invocationId, signal: call.signal,
        ...(args.artifactJobId !== undefined ? { artifactJobId: args.artifactJobId } : {}),
        ...(args.path !== undefined ? { path: args.path } : {}),
        ...(call.onProgress ? { onProgress: call.onProgress } : {}),
      });
      return { ...result };
    },
  };
}
