import { z, type ZodType } from 'zod';
import { GatewayError, type ApprovalMode, type PermissionDecision } from '../core/index.js';

const decisionBody = z
  .object({
    decision: z.enum(['allow_once', 'allow_matching', 'deny']),
    /** The permission epoch the human saw; a stale one gets 409. */
    epoch: z.number().int().min(0).optional(),
  })
  .strict();

const sessionPatchBody = z
  .object({
    // never_ask was a short-lived name for always_allow (seed §11); it is accepted and stored as always_allow.
    approvalMode: z.enum(['ask_for_dangerous', 'always_allow', 'never_ask']).transform((m): ApprovalMode => (m === 'never_ask' ? 'always_allow' : m)),
  })
  .strict();

/** `POST /api/permission-requests/:id/decision` body. */
export function parseDecisionBody(input: unknown): { decision: PermissionDecision; epoch?: number } {
  return parseOrThrow(decisionBody, input);
}

/** `PATCH /api/sessions/:id` body. */
export function parseSessionPatch(input: unknown): { approvalMode: ApprovalMode } {
  return parseOrThrow(sessionPatchBody, input);
}

function parseOrThrow<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const keys = (issue as { keys?: string[] }).keys;
  const field = [...issue.path, ...(issue.code === 'unrecognized_keys' && keys ? [keys[0]] : [])].map(String).join('.');
  const message = issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message;
  throw new GatewayError('invalid_input', `${field || '(body)'}: ${message}`, { details: { field } });
}
