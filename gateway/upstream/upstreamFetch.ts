import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { GatewayError } from '../core/index.js';
import { abortIsolatingFetch } from './abortIsolatingFetch.js';
import { htmlPageFetch } from './htmlPageAnswers.js';
import { lostResponseFetch } from './lostResponseFetch.js';
import { malformedResponseFetch } from './malformedResponseFetch.js';
import { sameOriginRedirects } from './sameOriginRedirects.js';
import { sizeBoundedFetch } from './sizeBoundedFetch.js';
import type { UpstreamAuth } from './upstreamTarget.js';

export interface UpstreamFetchOptions {
  /** The upstream as errors name it. */
  named: string;
  /** Which transport the requests are for: it decides which answers must be MCP (htmlPageAnswers.ts). */
  transport: 'http' | 'sse';
  maxMessageBytes: number;
  /** A response broken off mid-way (its method: a POST's answer, or the GET of an event stream). */
  onLost: (method: string, error: unknown) => void;
  /** A message over the size bound: the connection is failed with this error. */
  onViolation: (error: GatewayError) => void;
  /** An SSE stream that reached no MCP endpoint (htmlPageAnswers.ts): the error its connect is to fail with. */
  onStreamRefused: (error: GatewayError) => void;
  auth?: UpstreamAuth;
}

/**
 * The fetch an HTTP or SSE upstream is reached through, innermost first: aborts kept to their own
 * request, redirects only to the same origin (any other refused as no MCP endpoint), a broken-off
 * response reported, every message bounded in size, a web page where an MCP answer was due refused,
 * a malformed answer turned into its request's error, and the login's token added.
 */
export function upstreamFetch(options: UpstreamFetchOptions): FetchLike {
  const { named, transport, maxMessageBytes, onLost, onViolation, onStreamRefused, auth } = options;
  const bounded = sizeBoundedFetch(lostResponseFetch(sameOriginRedirects(abortIsolatingFetch(), named), onLost), { id: named, maxMessageBytes, onViolation });
  const repaired = malformedResponseFetch(htmlPageFetch(bounded, { named, transport, onStreamRefused }), named);
  return auth ? auth.wrapFetch(repaired) : repaired;
}
