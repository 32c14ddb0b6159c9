import { z } from 'zod';
import {
  DEFAULT_CUSTOM_TIMEOUT_SECONDS, MAX_CUSTOM_SERVERS, requestedArgsSchema, requestedCommandSchema, requestedCwdSchema, envKeySchema, headerKeySchema,
  envValueSchema, headerValueSchema, mcpUrlSchema, namesRecord, serverNameKey, serverNameSchema,
} from './customServerConfig.js';
import type { CreateCustomServer } from './customServerRequests.js';

const foreignSetting = (words: string) => z.unknown().refine(() => false, words).optional();
const AUTO_APPROVAL = 'is an editor\'s list of tools to run without asking, not read here: remove it (scigate asks through its own approvals; PATCH /api/sessions/:id sets a Session\'s approvalMode)';

/**
 * One entry of `mcpServers` as Claude Desktop, Cursor, VS Code and the MCP Inspector's "Servers
 * File" write it: a stdio program (`command`, `args`, `env`, `cwd`) or an endpoint (`url`,
 * `headers`, `type` http|sse; http by default; the Inspector writes `streamable-http` for http).
 */
const importEntrySchema = z
  .object({
    type: z
      .enum(['stdio', 'http', 'streamable-http', 'sse'], { error: 'must be one of stdio, http (or streamable-http), sse' })
      .transform((type) => (type === 'streamable-http' ? 'http' : type))
      .optional(),
    command: requestedCommandSchema.optional(),
    args: requestedArgsSchema.optional(),
    cwd: requestedCwdSchema.optional(),
    env: namesRecord(envKeySchema, envValueSchema).optional(),
    url: mcpUrlSchema.optional(),
    headers: namesRecord(headerKeySchema, headerValueSchema).optional(),
    /** Accepted for compatibility and ignored: imported servers always start disabled. */
    disabled: z.boolean().optional(),
    /** The MCP Inspector's hint for humans ("add this URL directly in your MCP Client"); ignored. */
    note: z.string().optional(),
    // Other editors' settings with no meaning here: refused with what to do, not as unknown fields.
    alwaysAllow: foreignSetting(AUTO_APPROVAL),
    autoApprove: foreignSetting(AUTO_APPROVAL),
    timeout: foreignSetting('is an editor\'s setting, not read here: remove it, and after the import set timeoutSeconds (PATCH /api/mcp/servers/:id)'),
    envFile: foreignSetting('is not read here: remove it and give the variables in env'),
    serverUrl: foreignSetting('is another editor\'s name for the endpoint: rename it to url'),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.type === undefined && entry.command !== undefined && entry.url !== undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give either a command (stdio) or a url (http/sse), not both' });
      return;
    }
    const stdio = entry.type === 'stdio' || (entry.type === undefined && entry.url === undefined);
    if (stdio) {
      if (entry.command === undefined) ctx.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs a command (or give a url)' });
      for (const field of ['url', 'headers'] as const) {
        if (entry[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is not a setting of a stdio server' });
      }
      return;
    }
    if (entry.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: `a ${entry.type} server needs a url` });
    for (const field of ['command', 'args', 'cwd', 'env'] as const) {
      if (entry[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is not a setting of an http/sse server' });
    }
  });

/**
 * VS Code's mcp.json names the servers `servers` (its settings.json, `mcp.servers`): read as
 * `mcpServers`. Its `inputs` (values it prompts for) have no equivalent here and are refused.
 */
function asMcpServers(document: unknown): unknown {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const { servers, ...rest } = document as Record<string, unknown>;
  return servers !== undefined && !('mcpServers' in rest) ? { ...rest, mcpServers: servers } : document;
}

const VSCODE_INPUTS = 'VS Code\'s prompted inputs are not read here: write each value into the env or headers that use it (instead of ${input:…}) and remove inputs';

/** `POST /api/mcp/servers/import`: the whole `{"mcpServers": {…}}` document (or VS Code's `{"servers": {…}}`). */
export const importServersSchema = z.preprocess(asMcpServers, z
  .object({
    inputs: z.unknown().refine(() => false, VSCODE_INPUTS).optional(),
    mcpServers: z
      .unknown()
      .superRefine(refuseUnsafeNames)
      .pipe(
        z.record(z.string().trim().min(1, 'a server name must not be empty').max(100, 'a server name must be at most 100 characters'), importEntrySchema, {
          error: 'must be an object of servers by name: {"mcpServers": {"name": {…}}}',
        }),
      )
      .refine((servers) => Object.keys(servers).length > 0, 'must contain at least one server')
      .refine((servers) => Object.keys(servers).length <= MAX_CUSTOM_SERVERS, `must contain at most ${MAX_CUSTOM_SERVERS} servers`),
  })
  .strict());

export type ImportServers = z.infer<typeof importServersSchema>;

/**
 * Checks the document's own keys before they become an object: `__proto__` would vanish into the
 * prototype and two keys equal after trimming, case-folding and NFKC would overwrite each other —
 * both silently. Each is refused with the entry named instead.
 */
function refuseUnsafeNames(servers: unknown, ctx: z.RefinementCtx): void {
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return;
  const seen = new Map<string, string>();
  for (const name of Object.keys(servers)) {
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
      ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not allowed as a server name` });
      continue;
    }
    const checked = serverNameSchema.safeParse(name);
    if (!checked.success) {
      ctx.addIssue({ code: 'custom', path: [name], message: `a server name ${checked.error.issues[0]?.message ?? 'is not valid'}` });
      continue;
    }
    const key = serverNameKey(name);
    const other = seen.get(key);
    if (other !== undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `the name "${name}" collides with "${other}" (names are compared ignoring case and spaces)` });
    }
    seen.set(key, name);
  }
}
type ImportEntry = z.infer<typeof importEntrySchema>;

/** Turns an import document into create requests, in document order; every one disabled. */
export function importToCreateRequests(document: ImportServers): CreateCustomServer[] {
  return Object.entries(document.mcpServers).map(([name, entry]) => toCreateRequest(name, entry));
}

function toCreateRequest(name: string, entry: ImportEntry): CreateCustomServer {
  const common = { name, enabled: false, timeoutSeconds: DEFAULT_CUSTOM_TIMEOUT_SECONDS };
  const entries = (record: Record<string, string> | undefined) =>
    Object.entries(record ?? {}).map(([key, value]) => ({ key, value }));
  if (entry.type === 'stdio' || (entry.type === undefined && entry.url === undefined)) {
    return {
      ...common,
      transport: 'stdio',
      command: entry.command!,
      args: entry.args ?? [],
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
      env: entries(entry.env),
    };
  }
  return {
    ...common,
    transport: entry.type ?? 'http',
    url: entry.url!,
    headers: entries(entry.headers),
    auth: { mode: 'none' },
  };
}
