import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * What the last request to the authorization server was and how it was answered, noted by
 * `providerFetch` for one login or refresh: the SDK's errors do not say which document failed,
 * and some quote the provider's body, which the admin is never shown.
 */
export interface ProviderTrace {
  last?: {
    /** The step as the admin knows it: "the authorization server metadata", "the token exchange", … */
    step: string;
    origin: string;
    /** 0 while no answer came (the request failed). */
    status: number;
    /** The provider's OAuth `error` code, when its answer carried a well-formed one. */
    oauthError?: string;
    /** A successful answer that was not JSON. */
    notJson?: boolean;
  };
}

/** Which step of a login or refresh a request to the authorization server is. */
export function stepOf(url: URL, init: RequestInit | undefined): string {
  if (url.pathname.includes('/.well-known/oauth-protected-resource')) return "the MCP server's protected resource metadata";
  if (url.pathname.includes('/.well-known/')) return 'the authorization server metadata';
  const body = init?.body instanceof URLSearchParams ? init.body.toString() : typeof init?.body === 'string' ? init.body : '';
  if (/(^|&)grant_type=authorization_code(&|$)/.test(body)) return 'the token exchange';
  if (/(^|&)grant_type=refresh_token(&|$)/.test(body)) return 'the token refresh';
  if ((init?.method ?? 'GET').toUpperCase() === 'POST' && body.startsWith('{')) return 'the client registration';
  return `the request to ${url.origin}${url.pathname}`;
}

/** Notes an answer already read in full (`body`) in `trace`. */
export function noteAnswer(trace: ProviderTrace, step: string, url: URL, status: number, body: Uint8Array): void {
  const text = Buffer.from(body).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const code = (json as { error?: unknown } | undefined)?.error;
  trace.last = {
    step, origin: url.origin, status,
    ...(typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? { oauthError: code } : {}),
    ...(status >= 200 && status < 300 && json === undefined ? { notJson: true } : {}),
  };
}

/**
 * Why a login or refresh failed, for the admin: the step and the provider's OAuth error code, or
 * what was wrong with its answer; never the provider's own text. `redirectUri` names the callback
 * the provider must accept when it refuses it. Undefined when the trace does not explain `error`.
 */
export function providerFailure(error: unknown, trace: ProviderTrace, redirectUri?: string): string | undefined {
  const last = trace.last;
  if (!last) return undefined;
  if (last.status === 0) return `${last.step} failed: the authorization server at ${last.origin} could not be reached`;
  if (last.oauthError === 'invalid_redirect_uri') {
    return `${last.step} was refused (OAuth error invalid_redirect_uri): the provider does not accept the gateway's callback URL${redirectUri ? ` ${redirectUri}` : ''}, and must be configured to allow it`;
  }
  if (last.oauthError) return `${last.step} was refused by the authorization server at ${last.origin} (OAuth error ${last.oauthError})`;
  if (error instanceof OAuthError || last.status >= 300) return `${last.step} failed: the authorization server at ${last.origin} answered HTTP ${last.status} without an OAuth error`;
  if (last.notJson || error instanceof SyntaxError) return `${last.step} failed: the authorization server at ${last.origin} answered with something that is not JSON`;
  const issues = (error as { name?: string; issues?: Array<{ path?: unknown[] }> } | undefined)?.issues;
  if ((error as { name?: string } | undefined)?.name === 'ZodError' && Array.isArray(issues)) {
    const fields = [...new Set(issues.map((issue) => (issue.path ?? []).join('.')).filter(Boolean))].slice(0, 3);
    return `${last.step} failed: the authorization server at ${last.origin} answered with a document that is not valid${fields.length ? ` (${fields.join(', ')} missing or wrong)` : ''}`;
  }
  return undefined;
}
