import { Ajv, type ValidateFunction } from 'ajv';
import { isHostAllowed, mcpToolResultJsonSchema, type McpToolResult, type SourceManifest } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';

// Compiled on the first built-in result rather than at import: compiling it was about a twentieth
// of the CPU `scigate stdio` spends before its first tools/list.
let compiledEnvelope: ValidateFunction | undefined;
const envelopeSchema = () => (compiledEnvelope ??= new Ajv({ strict: false, allErrors: false }).compile(mcpToolResultJsonSchema));

/**
 * Checks a built-in source's structured result: the McpToolResult schema, identity (sourceId and
 * toolId of the tool that was called, on every record and candidate) and candidate URLs (https, on
 * the source's allowed domains). Anything else is an `upstream_error`, never data.
 */
export function verifyEnvelope(value: unknown, manifest: SourceManifest, toolId: string): McpToolResult {
  const forced = typeof value === 'object' && value !== null ? { ...(value as object), untrusted: true } : value;
  const validateEnvelope = envelopeSchema();
  if (!validateEnvelope(forced)) {
    const e = validateEnvelope.errors?.[0];
    throw rejected(`it does not match the result schema (${e?.instancePath || '/'} ${e?.message ?? ''})`);
  }
  const result = forced as unknown as McpToolResult;
  if (result.sourceId !== manifest.id || result.toolId !== toolId) {
    throw rejected(`it claims to come from ${result.sourceId}/${result.toolId}, not ${manifest.id}/${toolId}`);
  }
  for (const record of result.records) {
    if (record.sourceId !== manifest.id || record.id !== `${manifest.id}:${record.sourceRecordId}`) {
      throw rejected(`record "${record.id.slice(0, 80)}" has a forged identity`);
    }
  }
  for (const candidate of result.artifacts ?? []) {
    if (candidate.sourceId !== manifest.id) throw rejected(`candidate ${candidate.id} names another source`);
    const url = safeUrl(candidate.url);
    if (!url || url.protocol !== 'https:' || !isHostAllowed(url.hostname, manifest.allowedDomains)) {
      throw rejected(`candidate URL ${candidate.url.slice(0, 120)} is not https on an allowed domain`);
    }
  }
  return result;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function rejected(why: string): GatewayError {
  return new GatewayError('upstream_error', `The source returned a result the gateway refused: ${why}.`);
}
