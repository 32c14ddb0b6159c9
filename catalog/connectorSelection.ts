import { z } from 'zod';

/**
 * A connector selection: the Source IDs a Session, Project or the global settings allow, or
 * `null` to inherit (Session → Project → global; a global `null` allows every enabled source).
 */
export const connectorSelectionSchema = z
  .array(z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, 'must be a source id'))
  .max(200, 'at most 200 sources')
  .nullable();

export const projectIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, _ or -');

/** `PATCH /api/settings`. */
export const patchSettingsSchema = z.object({ connectors: connectorSelectionSchema }).partial().strict();

/** `POST /api/projects`. */
export const createProjectSchema = z
  .object({
    id: projectIdSchema,
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    connectors: connectorSelectionSchema.default(null),
  })
  .strict();

/** `PATCH /api/projects/:id`. */
export const patchProjectSchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    connectors: connectorSelectionSchema,
  })
  .partial()
  .strict();

/**
 * `PATCH /api/sessions/:id`: the approval mode and/or the connector selection. `never_ask` was a
 * short-lived name for `always_allow` (seed §11); it is accepted and stored as `always_allow`.
 */
export const sessionPatchSchema = z
  .object({
    approvalMode: z
      .enum(['ask_for_dangerous', 'always_allow', 'never_ask'], { error: 'must be "ask_for_dangerous" or "always_allow"' })
      .transform((m) => (m === 'never_ask' ? ('always_allow' as const) : m))
      .optional(),
    connectors: connectorSelectionSchema.optional(),
  })
  .strict()
  .refine((patch) => patch.approvalMode !== undefined || patch.connectors !== undefined, {
    message: 'name approvalMode and/or connectors',
  });

export type ConnectorSelectionValue = z.infer<typeof connectorSelectionSchema>;
export type CreateProject = z.infer<typeof createProjectSchema>;
export type PatchProject = z.infer<typeof patchProjectSchema>;
