import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../gateway/core/index.js';
import type { AuthorizeInput, PermissionGate } from '../../gateway/permissions/index.js';
import { pendingRequests } from '../fixtures/permissionDoubles.js';
import { redisReplicaGates } from '../fixtures/redisReplicaGates.js';

/**
 * Two replicas' permission gates over ONE store (what PostgreSQL gives the deployment; the memory
 * store stands in for it here) and one Redis events relay: a decision sent to replica A releases
 * the action waiting on replica B, which wakes on the event and re-reads the store.
 */
const WRITE = { action: 'tool.call' as const, resource: 'mcp__notes__write_note' };

const { replicas } = redisReplicaGates();

let seq = 0;
function waitOn(gate: PermissionGate, overrides: Partial<AuthorizeInput> = {}) {
  return gate.authorize({
    sessionId: 'ses_perm', invocationId: `inv_${++seq}`, toolName: WRITE.resource, action: WRITE, arguments: { text: 'hi' },
    signal: new AbortController().signal, ...overrides,
  });
}

describe('permission decisions across replicas', () => {
  it('allow_once sent to A releases the call waiting on B; a second decision is a 409', async () => {
    const { a, b, store } = await replicas();
    const waiting = waitOn(b);
    const [request] = await pendingRequests(store, 1);
    const decided = await a.decide(request!.id, 'allow_once', { via: 'admin' });
    expect(decided.status).toBe('allowed');
    const authorization = await waiting;
    expect(authorization).toMatchObject({ allowed: true, basis: 'allow_once', requestId: request!.id });
    const again = await b.decide(request!.id, 'deny', { via: 'admin' }).catch((error: unknown) => error);
    expect((again as GatewayError).code).toBe('conflict');
  });

  it('deny sent to A ends the call on B with the denying authorization', async () => {
    const { a, b, store } = await replicas();
    const waiting = waitOn(b);
    const [request] = await pendingRequests(store, 1);
    await a.decide(request!.id, 'deny', { via: 'admin' });
    expect(await waiting).toMatchObject({ allowed: false, basis: 'deny', requestId: request!.id });
  });

  it('allow_matching on A releases every matching call on B, and the Grant applies on B from then on', async () => {
    const { a, b, store } = await replicas();
    const first = waitOn(b);
    const second = waitOn(b);
    const [request] = await pendingRequests(store, 2);
    await a.decide(request!.id, 'allow_matching', { via: 'admin' });
    const [one, two] = await Promise.all([first, second]);
    expect([one.basis, two.basis].sort()).toEqual(['allow_matching', 'grant']);
    expect(one.grantId).toBe(two.grantId);
    expect((await waitOn(b)).basis).toBe('grant');
  });

  it('switching the Session to always_allow on A wakes the call waiting on B', async () => {
    const { a, b, store } = await replicas();
    const waiting = waitOn(b);
    await pendingRequests(store, 1);
    await a.setApprovalMode('ses_perm', 'always_allow');
    expect(await waiting).toMatchObject({ allowed: true, basis: 'always_allow' });
  });
});
