import { Router } from 'express';
import {
  GatewayError, parseDecisionBody, requireSession, type PermissionGate, type PermissionRequestStatus, type SessionStore,
} from '../gateway/index.js';
import { parseQueryParams } from './queryParams.js';

export interface PermissionRoutesDeps {
  sessions: SessionStore;
  permissionGate: PermissionGate;
}

const STATUSES: readonly PermissionRequestStatus[] = ['pending', 'allowed', 'denied', 'expired', 'cancelled', 'orphaned'];

/**
 * Human authorization (GATEWAY.md §10): a Session's requests, decisions, Grants and authorizations,
 * and its approval mode. Decisions for an old epoch or an already-decided request get 409.
 */
export function permissionRoutes(deps: PermissionRoutesDeps): Router {
  const router = Router();
  const gate = deps.permissionGate;

  router.get('/sessions/:id/permission-requests', async (req, res) => {
    const session = await requireSession(deps.sessions, req.params.id);
    const { status } = parseQueryParams(req.query, ['status']);
    if (status !== undefined && !STATUSES.includes(status as PermissionRequestStatus)) {
      throw new GatewayError('invalid_input', `status: must be one of ${STATUSES.join(', ')}`, { details: { field: 'status' } });
    }
    const requests = await gate.listRequests(session.id, status as PermissionRequestStatus | undefined);
    res.json({ epoch: session.permissionEpoch, approvalMode: session.approvalMode, requests });
  });

  router.post('/permission-requests/:id/decision', async (req, res) => {
    const { decision, epoch } = parseDecisionBody(req.body ?? {});
    const request = await gate.decide(req.params.id, decision, { via: 'admin', ...(epoch !== undefined ? { epoch } : {}) });
    res.json({ request });
  });

  router.get('/sessions/:id/grants', async (req, res) => {
    res.json({ grants: await gate.listGrants((await requireSession(deps.sessions, req.params.id)).id) });
  });

  router.delete('/grants/:id', async (req, res) => {
    res.json({ grant: await gate.revokeGrant(req.params.id) });
  });

  router.get('/sessions/:id/authorizations', async (req, res) => {
    res.json({ authorizations: await gate.listAuthorizations((await requireSession(deps.sessions, req.params.id)).id) });
  });
  return router;
}
