import { z } from 'zod';
import { parseInput, type PermissionDecision } from '../core/index.js';

const decisionBody = z
  .object({
    decision: z.enum(['allow_once', 'allow_matching', 'deny']),
    /** The permission epoch the human saw; a stale one gets 409. */
    epoch: z.number().int().min(0).optional(),
  })
  .strict();

/** `POST /api/permission-requests/:id/decision` body. */
export function parseDecisionBody(input: unknown): { decision: PermissionDecision; epoch?: number } {
  return parseInput(decisionBody, input);
}
