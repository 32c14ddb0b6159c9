import { z } from 'zod';
import { INVISIBLE_CHARS } from './boundText.js';
import { customServerLimitsSchema } from './customServerLimits.js';

/** Most custom MCP servers one gateway keeps (seed §5.2). */
export const MAX_CUSTOM_SERVERS = 50;
/** Tool timeout of a custom server when none is given, in seconds. */
export const DEFAULT_CUSTOM_TIMEOUT_SECONDS = 60;

/** `custom-` + 12 lower-case hex digits: the server's id and its Source ID. */
export const customServerIdSchema = z
  .string()
  .regex(/^custom-[0-9a-f]{12}$/, 'must be "custom-" followed by 12 lower-case hex digits');

/** A server name must not carry INVISIBLE_CHARS: it would look like another one. */
export const serverNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
  .refine((name) => !INVISIBLE_CHARS.test(name), 'must not contain invisible or text-direction characters (zero-width, bidi controls)');

/**
 * The form two server names are compared in: Unicode-compatible (NFKC), case-folded, without
 * whitespace — "Alpha Lab", "alpha  lab" and "ＡＬＰＨＡ LAB" are one name.
 */
export function serverNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
}

export const timeoutSecondsSchema = z
  .number({ error: 'must be a whole number of seconds from 1 to 600' })
  .int('must be a whole number of seconds from 1 to 600')
  .min(1, 'must be at least 1 second')
  .max(600, 'must be at most 600 seconds');

/*
 * A key "__proto__" cannot be kept in the objects env and headers are saved as (an assignment sets
 * the prototype instead, and zod's records skip the key): it is refused, never dropped unsaid.
 */
const PROTO_KEY = '__proto__';

export const envKeySchema = z
  .string()
  .max(128, 'an environment variable name must be at most 128 characters')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and _, not starting with a digit')
  .refine((key) => key !== PROTO_KEY, `an environment variable cannot be named "${PROTO_KEY}" here; rename it`);

export const headerKeySchema = z
  .string()
  .max(128, 'a header name must be at most 128 characters')
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is letters, digits and !#$%&\'*+.^_`|~-')
  .refine((key) => key !== PROTO_KEY, `a header cannot be named "${PROTO_KEY}" here; rename it`);

/**
 * `z.record(key, value)` for a JSON object of names a request sends (an import's env and headers):
 * an own `__proto__` key, which the record would skip without checking, meets `key`'s refusal.
 */
export function namesRecord<V extends z.ZodType>(key: typeof envKeySchema, value: V) {
  return z
    .unknown()
    .superRefine((input, ctx) => {
      if (typeof input !== 'object' || input === null || !Object.hasOwn(input, PROTO_KEY)) return;
      for (const issue of key.safeParse(PROTO_KEY).error?.issues ?? []) ctx.addIssue({ code: 'custom', path: [PROTO_KEY], message: issue.message });
    })
    .pipe(z.record(key, value));
}

/** A secret value as stored; a value `$NAME` is read from the gateway's environment at connect time. */
export const secretValueSchema = z.string().max(8192, 'a value must be at most 8192 characters');

export const commandSchema = z.string().trim().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');
export const argsSchema = z.array(z.string().max(8192, 'an argument must be at most 8192 characters')).max(200, 'at most 200 arguments');
export const cwdSchema = z.string().max(4096).regex(/^\//, 'must be an absolute path');

/*
 * What a request may set is stricter than what a saved file may hold: a file an earlier version
 * saved with such a value still loads (that server fails to start and says why) and can be fixed
 * through the API. Node refuses to start a process whose command, arguments, directory or
 * environment holds a NUL, and to send a header value outside one line of Latin-1.
 */
const NO_NUL = /^[^\0]*$/;
export const requestedCommandSchema = commandSchema.regex(NO_NUL, 'must not hold a NUL character');
export const requestedArgsSchema = z
  .array(z.string().max(8192, 'an argument must be at most 8192 characters').regex(NO_NUL, 'an argument must not hold a NUL character'))
  .max(200, 'at most 200 arguments');
export const requestedCwdSchema = cwdSchema.regex(NO_NUL, 'must not hold a NUL character');
export const envValueSchema = secretValueSchema.regex(NO_NUL, 'an environment value must not hold a NUL character (a process environment cannot carry one)');
/** RFC 9110's field-value as Node's HTTP client sends it: printable ASCII, tabs and Latin-1 (no CR, LF or NUL). */
export const headerValueSchema = secretValueSchema.regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'a header value must be one line of printable ASCII or Latin-1 characters');

export const mcpUrlSchema = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .refine(isHttpUrl, 'must be the http:// or https:// URL of an MCP endpoint')
  .refine(
    (text) => !hasUserinfo(text),
    'must not contain a user name or password (user:pass@host); MCP clients never send them — put credentials in a header, e.g. Authorization',
  );

const oauthUrlSchema = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .refine((text) => isSecureOrLoopback(text), 'must be an https:// URL (plain http:// only for a loopback host)');

/** What `auth: {mode: "oauth"}` may carry besides the mode; shared by the saved config and the requests. */
export const oauthSettingsFields = {
  /** A client registered with the provider in advance; without it the gateway registers itself (or uses `clientMetadataUrl`). */
  clientId: z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters').optional(),
  /** The preregistered client's secret; a confidential client only. */
  clientSecret: secretValueSchema.min(1, 'must not be empty (leave it out for a public client)').optional(),
  /** A client ID metadata document URL (SEP-991) the provider may accept instead of registration; scigate hosts none. */
  clientMetadataUrl: oauthUrlSchema.optional(),
  /** Scopes to ask for when the server advertises none (space-separated). */
  scope: z.string().trim().max(2048, 'must be at most 2048 characters').regex(/^[\x21\x23-\x5B\x5D-\x7E ]*$/, 'must be space-separated scope names').optional(),
};

const noAuthSchema = z.object({ mode: z.literal('none') }).strict();
const oauthAuthSchema = z.object({ mode: z.literal('oauth'), ...oauthSettingsFields }).strict();

/** Authentication of an http/sse server: none, or OAuth 2.1 through the SDK's client auth (seed §5.5). */
export const customAuthSchema = z.discriminatedUnion('mode', [noAuthSchema, oauthAuthSchema], { error: 'mode must be "none" or "oauth"' });
export type CustomAuth = z.infer<typeof customAuthSchema>;
export type OAuthSettings = z.infer<typeof oauthAuthSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const commonFields = {
  id: customServerIdSchema,
  name: serverNameSchema,
  enabled: z.boolean(),
  timeoutSeconds: timeoutSecondsSchema,
  /** Per-server limits an admin set (concurrency, queue, response size, rate); absent fields keep the defaults. */
  limits: customServerLimitsSchema.optional(),
  /** Hash of each tool definition an admin accepted, by upstream tool name; absent until first discovery. */
  acceptedTools: z.record(z.string(), sha256Hex).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const stdioServerConfigSchema = z
  .object({
    ...commonFields,
    transport: z.literal('stdio'),
    command: commandSchema,
    args: argsSchema,
    cwd: cwdSchema.optional(),
    env: z.record(envKeySchema, secretValueSchema),
  })
  .strict();

export const remoteServerConfigSchema = z
  .object({
    ...commonFields,
    transport: z.enum(['http', 'sse']),
    url: mcpUrlSchema,
    headers: z.record(headerKeySchema, secretValueSchema.regex(/^[^\r\n]*$/, 'a header value must be one line')),
    auth: customAuthSchema,
  })
  .strict()
  .superRefine((server, ctx) => {
    for (const issue of oauthRuleIssues(server)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

/**
 * The cross-field rules of OAuth mode (seed §5.5): a secret needs a client id, a manual Authorization
 * header would fight the tokens, and tokens travel over HTTPS except to a loopback server.
 */
export function oauthRuleIssues(server: { url: string; headers: Record<string, string>; auth: CustomAuth }): Array<{ path: string[]; message: string }> {
  if (server.auth.mode !== 'oauth') return [];
  const issues: Array<{ path: string[]; message: string }> = [];
  if (server.auth.clientSecret !== undefined && server.auth.clientId === undefined) {
    issues.push({ path: ['auth', 'clientSecret'], message: 'a client secret needs auth.clientId, the client it belongs to' });
  }
  const header = Object.keys(server.headers).find((key) => key.toLowerCase() === 'authorization');
  if (header !== undefined) {
    issues.push({ path: ['headers', header], message: 'OAuth mode sends its own Authorization header; remove this one (other headers are kept)' });
  }
  if (!isSecureOrLoopback(server.url)) issues.push({ path: ['url'], message: 'OAuth needs an https:// URL (plain http:// only for a loopback host)' });
  return issues;
}

/** One saved custom MCP server, as kept in `custom-mcp-servers.enc` (seed §5.2). */
export const customServerConfigSchema = z.discriminatedUnion('transport', [stdioServerConfigSchema, remoteServerConfigSchema], {
  error: 'must be one of stdio, http, sse',
});

/** The decrypted content of `custom-mcp-servers.enc`. */
export const customServerFileSchema = z
  .object({ version: z.literal(1), servers: z.array(customServerConfigSchema).max(MAX_CUSTOM_SERVERS) })
  .strict();

export type CustomServerConfig = z.infer<typeof customServerConfigSchema>;
export type StdioServerConfig = z.infer<typeof stdioServerConfigSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerConfigSchema>;
export type CustomTransport = CustomServerConfig['transport'];
export type CustomServerFile = z.infer<typeof customServerFileSchema>;

function hasUserinfo(text: string): boolean {
  try {
    const url = new URL(text);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https://, or http:// to a loopback host (where no one can read the token on the wire). */
export function isSecureOrLoopback(text: string): boolean {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && (LOOPBACK_HOSTNAMES.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname));
  } catch {
    return false;
  }
}
