import { z } from 'zod';

/** Most custom MCP servers one gateway keeps (seed §5.2). */
export const MAX_CUSTOM_SERVERS = 50;
/** Tool timeout of a custom server when none is given, in seconds. */
export const DEFAULT_CUSTOM_TIMEOUT_SECONDS = 60;

/** `custom-` + 12 lower-case hex digits: the server's id and its Source ID. */
export const customServerIdSchema = z
  .string()
  .regex(/^custom-[0-9a-f]{12}$/, 'must be "custom-" followed by 12 lower-case hex digits');

/**
 * Invisible and text-direction characters (zero-width spaces and joiners, bidi overrides and
 * isolates, the BOM: Unicode's format category): a name carrying them looks like another one.
 */
const INVISIBLE_CHARS = /[\p{Cf}\u2028\u2029]/u;

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

export const envKeySchema = z
  .string()
  .max(128, 'an environment variable name must be at most 128 characters')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and _, not starting with a digit');

export const headerKeySchema = z
  .string()
  .max(128, 'a header name must be at most 128 characters')
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is letters, digits and !#$%&\'*+.^_`|~-');

/** A secret value as stored; a value `$NAME` is read from the gateway's environment at connect time. */
export const secretValueSchema = z.string().max(8192, 'a value must be at most 8192 characters');

export const commandSchema = z.string().trim().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');
export const argsSchema = z.array(z.string().max(8192, 'an argument must be at most 8192 characters')).max(200, 'at most 200 arguments');
export const cwdSchema = z.string().max(4096).regex(/^\//, 'must be an absolute path');

export const mcpUrlSchema = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .refine(isHttpUrl, 'must be the http:// or https:// URL of an MCP endpoint')
  .refine(
    (text) => !hasUserinfo(text),
    'must not contain a user name or password (user:pass@host); MCP clients never send them — put credentials in a header, e.g. Authorization',
  );

/** Authentication of an http/sse server. Only `none` for now; `oauth` joins this union later. */
export const customAuthSchema = z
  .object({ mode: z.enum(['none'], { error: 'must be "none" (OAuth is not available yet)' }) })
  .strict();

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const commonFields = {
  id: customServerIdSchema,
  name: serverNameSchema,
  enabled: z.boolean(),
  timeoutSeconds: timeoutSecondsSchema,
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
  .strict();

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
