import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { rpcError, type RpcError, type SessionFeatures, type SessionHandlers } from '../front/index.js';
import { GatewayError, parseWorkspaceResourceUri } from '../core/index.js';
import type { SourceEntry } from '../registry/index.js';
import type { UpstreamFeatures } from './upstreamFeatures.js';
import type { WorkspaceResources } from './workspaceResources.js';

type FeatureHandlers = Pick<
  SessionHandlers,
  'listResources' | 'readResource' | 'listResourceTemplates' | 'subscribeResource' | 'unsubscribeResource' | 'listPrompts' | 'getPrompt' | 'complete'
>;

/**
 * The resources, prompts and completions requests of a Session: its workspace files (their own
 * `scigate://sessions/…` URIs) merged with its sources' resources. Resources, prompts and
 * completions have no `isError` result, so a GatewayError becomes a JSON-RPC error here, with the
 * upstream's own code when the upstream answered with one.
 */
export function featureHandlers(features: UpstreamFeatures, files: WorkspaceResources | undefined): FeatureHandlers {
  // Whether a URI names a workspace file; a refused URI (too long, or in the workspace's
  // scigate://sessions/ space yet no file of this session) throws, so it never reaches a source.
  const isFile = (uri: string): boolean => {
    if (uri.length > MAX_URI_CHARS) throw new GatewayError('invalid_input', `A resource URI may be at most ${MAX_URI_CHARS} characters; this one has ${uri.length}.`);
    if (files !== undefined && parseWorkspaceResourceUri(uri.split('?', 1)[0]!) !== undefined) return true;
    if (/^scigate:\/\/sessions\//i.test(uri)) throw new GatewayError('not_found', `${uri.slice(0, 200)} is not a file of this session; resources/list shows its files (scigate://sessions/<id>/files/<path>).`);
    return false;
  };
  return {
    listResources: rpc(async () => {
      const [own, upstream] = await Promise.all([files?.list() ?? { resources: [] }, features.listResources()]);
      return { resources: [...own.resources, ...upstream] };
    }),
    readResource: rpc(async (uri: string) => (isFile(uri) ? files!.read(uri) : features.readResource(uri))),
    listResourceTemplates: rpc(async () => ({ resourceTemplates: await features.listResourceTemplates() })),
    // A completed workspace file never changes: subscribing to one is accepted and stays silent.
    subscribeResource: rpc(async (uri: string) => (isFile(uri) ? undefined : features.subscribe(uri))),
    unsubscribeResource: rpc(async (uri: string) => (isFile(uri) ? undefined : features.unsubscribe(uri))),
    listPrompts: rpc(async () => ({ prompts: await features.listPrompts() })),
    getPrompt: rpc((params) => features.getPrompt(params)),
    complete: rpc((params) => features.complete(params)),
  };
}

/** Longest resource URI passed on: no file path or upstream URI needs more. */
const MAX_URI_CHARS = 8192;

/** What a session's server declares, from what its sources' servers declared at their last connection. */
export function featuresOf(sources: readonly SourceEntry[], options: { files: boolean }): SessionFeatures {
  const declared = sources.flatMap((e) => (e.client.serverCapabilities ? [e.client.serverCapabilities] : []));
  const resources = options.files || declared.some((c) => c.resources);
  return {
    ...(resources ? { resources: { subscribe: declared.some((c) => c.resources?.subscribe === true) } } : {}),
    ...(declared.some((c) => c.prompts) ? { prompts: true } : {}),
    ...(declared.some((c) => c.completions) ? { completions: true } : {}),
  };
}

function rpc<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => handler(...args).catch((error: unknown) => Promise.reject(toRpcError(error)));
}

function toRpcError(error: unknown): RpcError {
  if (error instanceof McpError) return rpcError(error.code, error.message, error.data);
  const e = GatewayError.from(error);
  const upstreamCode = e.code === 'upstream_error' ? e.details?.rpcCode : undefined;
  if (typeof upstreamCode === 'number') return rpcError(upstreamCode, e.message);
  const invalid = e.code === 'not_found' || e.code === 'invalid_input' || e.code === 'tool_unavailable';
  return rpcError(invalid ? ErrorCode.InvalidParams : ErrorCode.InternalError, e.message);
}
