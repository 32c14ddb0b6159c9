import { z } from 'zod';
import { parseInput, type ApprovalMode, type PermissionDecision } from '../core/index.js';

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
  return parseInput(decisionBody, input);
}

/** `PATCH /api/sessions/:id` body (the approval-mode part). */
export function parseSessionPatch(input: unknown): { approvalMode: ApprovalMode } {
  return parseInput(sessionPatchBody, input);
}
