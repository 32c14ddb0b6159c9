import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** What a server's 401 challenge told: where its protected-resource metadata is, and the scope it wants. */
export interface Challenge {
  resourceMetadataUrl?: string;
  scope?: string;
}

/**
 * Asks the server once without a token, the way an MCP client meets its first 401: the
 * `WWW-Authenticate` challenge may name the protected-resource metadata URL (RFC 9728) and a scope
 * that well-known discovery alone would miss. A server that answers otherwise tells nothing.
 */
export async function probeChallenge(target: { url: string; transport: 'http' | 'sse' }, fetchFn: FetchLike): Promise<Challenge> {
  const init: RequestInit =
    target.transport === 'sse'
      ? { method: 'GET', headers: { accept: 'text/event-stream' } }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0', id: 0, method: 'initialize',
            params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'scigate', version: '0.1.0' } },
          }),
        };
  try {
    const response = await fetchFn(target.url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    await response.body?.cancel().catch(() => {});
    if (response.status !== 401 && response.status !== 403) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}), ...(scope ? { scope } : {}) };
  } catch {
    // Discovery falls back to the well-known locations.
    return {};
  }
}
