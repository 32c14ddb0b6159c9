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

const APPROVAL_MODES = 'must be "ask_for_dangerous" or "always_allow"';

/**
 * `never_ask` was a short-lived name for `always_allow` (seed §11). Stored data migrates; a request
 * is refused instead, since the name also reads as "never allow" and must not silently widen permission.
 */
const LEGACY_NEVER_ASK =
  `${APPROVAL_MODES}; "never_ask" is an old name that is no longer accepted here. ` +
  'Send "always_allow" to run dangerous actions without asking, or "ask_for_dangerous" to be asked for each one';

/** `PATCH /api/sessions/:id`: the approval mode and/or the connector selection. */
export const sessionPatchSchema = z
  .object({
    approvalMode: z
      .enum(['ask_for_dangerous', 'always_allow'], { error: (issue) => (issue.input === 'never_ask' ? LEGACY_NEVER_ASK : APPROVAL_MODES) })
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
