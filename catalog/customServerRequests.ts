import { z } from 'zod';
import {
  DEFAULT_CUSTOM_TIMEOUT_SECONDS, requestedArgsSchema, requestedCommandSchema, requestedCwdSchema, oauthSettingsFields, envKeySchema, headerKeySchema,
  envValueSchema, headerValueSchema, mcpUrlSchema, serverNameSchema, timeoutSecondsSchema,
} from './customServerConfig.js';
import { customServerLimitsEditSchema } from './customServerLimits.js';

/**
 * One env or header entry in a create/update request. `value: null` keeps the saved value of an
 * unchanged key; `originalKey` (the key's saved name, from the editing draft) marks a rename, which
 * needs a new non-empty value because saved values never move between names (seed §5.3).
 */
function secretEditsSchema(key: z.ZodString, value: z.ZodString) {
  const entry = z
    .object({ key, value: value.nullable(), originalKey: z.string().max(128).optional() })
    .strict();
  return z.array(entry).max(100, 'at most 100 entries');
}

export const envEditsSchema = secretEditsSchema(envKeySchema, envValueSchema);
export const headerEditsSchema = secretEditsSchema(headerKeySchema, headerValueSchema);
export type SecretEdit = z.infer<typeof envEditsSchema>[number];

/**
 * `auth` in a create/update request: as saved, except `clientSecret: null`, which keeps the saved
 * secret (the secret-edit contract of seed §5.3; views show a set secret as `null`).
 */
export const customAuthRequestSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('none') }).strict(),
    z.object({ mode: z.literal('oauth'), ...oauthSettingsFields, clientSecret: oauthSettingsFields.clientSecret.unwrap().nullable().optional() }).strict(),
  ],
  { error: 'mode must be "none" or "oauth"' },
);
export type CustomAuthRequest = z.infer<typeof customAuthRequestSchema>;

const createCommon = {
  name: serverNameSchema,
  enabled: z.boolean().default(false),
  timeoutSeconds: timeoutSecondsSchema.default(DEFAULT_CUSTOM_TIMEOUT_SECONDS),
  limits: customServerLimitsEditSchema.optional(),
};

/** `POST /api/mcp/servers`: a new server (disabled unless `enabled` says otherwise). */
export const createCustomServerSchema = z.discriminatedUnion(
  'transport',
  [
    z
      .object({
        ...createCommon,
        transport: z.literal('stdio'),
        command: requestedCommandSchema,
        args: requestedArgsSchema.default([]),
        cwd: requestedCwdSchema.optional(),
        env: envEditsSchema.default([]),
      })
      .strict(),
    z
      .object({
        ...createCommon,
        transport: z.enum(['http', 'sse']),
        url: mcpUrlSchema,
        headers: headerEditsSchema.default([]),
        auth: customAuthRequestSchema.default({ mode: 'none' }),
      })
      .strict(),
  ],
  { error: 'must be one of stdio, http, sse' },
);

/** `PATCH /api/mcp/servers/:id`: only the fields that change; `env`/`headers` list every entry to keep. */
export const patchCustomServerSchema = z
  .object({
    name: serverNameSchema,
    enabled: z.boolean(),
    timeoutSeconds: timeoutSecondsSchema,
    /** Changes the named limits only; `null` (whole object or one field) restores the default. */
    limits: customServerLimitsEditSchema.nullable(),
    transport: z.enum(['stdio', 'http', 'sse'], { error: 'must be one of stdio, http, sse' }),
    command: requestedCommandSchema,
    args: requestedArgsSchema,
    cwd: requestedCwdSchema.nullable(),
    env: envEditsSchema,
    url: mcpUrlSchema,
    headers: headerEditsSchema,
    auth: customAuthRequestSchema,
  })
  .partial()
  .strict();

/** `POST /api/mcp/servers/:id/accept-tools`: upstream names or tool ids to accept; all withheld tools when absent. */
export const acceptToolsSchema = z
  .object({ tools: z.array(z.string().min(1).max(200)).min(1).max(500).optional() })
  .strict();

/** `POST /api/mcp/servers/:id/inspect`: one manual tool call under an existing Session. */
export const inspectToolSchema = z
  .object({
    sessionId: z.string().min(1, 'must name an existing session').max(200),
    toolId: z.string().min(1, 'must name a discovered tool').max(200),
    // Not z.record: it rebuilds the object by assignment, and `args['__proto__'] = …` sets the
    // prototype instead of a key, so a tool's `__proto__` argument would vanish before the call.
    arguments: z
      .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be a JSON object of the tool arguments')
      .default({}),
  })
  .strict();

export type CreateCustomServer = z.infer<typeof createCustomServerSchema>;
export type PatchCustomServer = z.infer<typeof patchCustomServerSchema>;
export type AcceptToolsRequest = z.infer<typeof acceptToolsSchema>;
export type InspectToolRequest = z.infer<typeof inspectToolSchema>;

/** `POST /api/mcp/servers/:id/oauth/start`: where the provider sends the browser back (default: this origin's callback). */
export const oauthStartSchema = z.object({ redirectUri: z.string().max(2048, 'must be at most 2048 characters').optional() }).strict();
export type OAuthStartRequest = z.infer<typeof oauthStartSchema>;
