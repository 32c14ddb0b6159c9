/** The normalized result shapes of GATEWAY.md §11, as TypeScript types and as published JSON Schemas. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Citation {
  text: string;
  authors?: string[];
  year?: number;
  venue?: string;
  doi?: string;
  url: string;
}

export interface McpRecord {
  /** `${sourceId}:${sourceRecordId}` */
  id: string;
  sourceId: string;
  sourceRecordId: string;
  kind: string;
  title: string;
  url: string;
  identifiers: Record<string, string>;
  citation: Citation;
  summary?: string;
  published?: string;
  fields?: JsonValue;
}

export interface ArtifactCandidate {
  id: string;
  sourceId: string;
  sourceRecordId: string;
  url: string;
  kind: string;
  mediaType: string;
  filename: string;
  license: string;
  sizeBytes?: number;
  checksum?: { algorithm: 'sha256' | 'sha1' | 'md5'; value: string };
}

export interface McpToolResult {
  records: McpRecord[];
  artifacts?: ArtifactCandidate[];
  warnings: string[];
  /**
   * Part of the answer is missing because a request failed in passing (its warning says which):
   * asking again may get it all, so the gateway never caches it.
   */
  partial?: true;
  data?: JsonValue;
  attribution: string;
  license: string;
  retrievedAt: string;
  sourceId: string;
  sourceVersion?: string;
  toolId: string;
  untrusted: true;
}

const str = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;

export const citationJsonSchema = {
  type: 'object',
  required: ['text', 'url'],
  properties: {
    text: nonEmpty,
    authors: { type: 'array', items: str },
    year: { type: 'integer' },
    venue: str,
    doi: str,
    url: { type: 'string', pattern: '^https://' },
  },
  additionalProperties: false,
} as const;

export const mcpRecordJsonSchema = {
  type: 'object',
  required: ['id', 'sourceId', 'sourceRecordId', 'kind', 'title', 'url', 'identifiers', 'citation'],
  properties: {
    id: nonEmpty,
    sourceId: nonEmpty,
    sourceRecordId: nonEmpty,
    kind: nonEmpty,
    title: str,
    url: { type: 'string', pattern: '^https://' },
    identifiers: { type: 'object', additionalProperties: str },
    citation: citationJsonSchema,
    summary: str,
    published: str,
    fields: {},
  },
  additionalProperties: false,
} as const;

export const artifactCandidateJsonSchema = {
  type: 'object',
  required: ['id', 'sourceId', 'sourceRecordId', 'url', 'kind', 'mediaType', 'filename', 'license'],
  properties: {
    id: nonEmpty,
    sourceId: nonEmpty,
    sourceRecordId: nonEmpty,
    url: { type: 'string', pattern: '^https://' },
    kind: nonEmpty,
    mediaType: nonEmpty,
    filename: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$' },
    license: nonEmpty,
    sizeBytes: { type: 'integer', minimum: 0 },
    checksum: {
      type: 'object',
      required: ['algorithm', 'value'],
      properties: { algorithm: { enum: ['sha256', 'sha1', 'md5'] }, value: { type: 'string', pattern: '^[0-9a-f]+$' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** JSON Schema of McpToolResult; enforced on every built-in result. */
export const mcpToolResultJsonSchema = {
  type: 'object',
  required: ['records', 'warnings', 'attribution', 'license', 'retrievedAt', 'sourceId', 'toolId', 'untrusted'],
  properties: {
    records: { type: 'array', items: mcpRecordJsonSchema },
    artifacts: { type: 'array', items: artifactCandidateJsonSchema },
    warnings: { type: 'array', items: str },
    partial: { const: true },
    data: {},
    attribution: nonEmpty,
    license: nonEmpty,
    retrievedAt: nonEmpty,
    sourceId: nonEmpty,
    sourceVersion: str,
    toolId: nonEmpty,
    untrusted: { const: true },
  },
  additionalProperties: false,
} as const;

/** The structured error every failed governed call returns. */
export const toolErrorJsonSchema = {
  type: 'object',
  required: ['code', 'message', 'retryable', 'attempts'],
  properties: {
    code: nonEmpty,
    message: str,
    retryable: { type: 'boolean' },
    attempts: { type: 'integer', minimum: 0 },
    retryAfterMs: { type: 'integer', minimum: 0 },
    details: { type: 'object' },
  },
  additionalProperties: false,
} as const;

/**
 * The `outputSchema` the gateway publishes for governed built-in tools: a result plus
 * its invocationId, or an error plus its invocationId (SDK clients validate both).
 */
export const governedOutputJsonSchema = {
  type: 'object',
  properties: { invocationId: nonEmpty },
  required: ['invocationId'],
  oneOf: [
    {
      required: mcpToolResultJsonSchema.required,
      properties: mcpToolResultJsonSchema.properties,
    },
    { required: ['error'], properties: { error: toolErrorJsonSchema } },
  ],
} as const;

/** A failed call's structuredContent: scigate's error and the Invocation's id, nothing else. */
const failedCallJsonSchema = {
  type: 'object',
  required: ['error', 'invocationId'],
  properties: { error: toolErrorJsonSchema, invocationId: nonEmpty },
  additionalProperties: false,
} as const;

/**
 * The `outputSchema` the gateway publishes for one of its native tools: the tool's result, or an
 * error plus its invocationId. SDK clients check an error's structuredContent against it too, so a
 * schema of the result alone would turn every failed call into a schema mismatch.
 */
export function resultOrErrorJsonSchema(resultSchema: object): { type: 'object'; oneOf: object[] } {
  return { type: 'object', oneOf: [resultSchema, failedCallJsonSchema] };
}
