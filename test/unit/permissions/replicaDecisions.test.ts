import { describe, expect, it } from 'vitest';
import type { PermissionRequestStatus, PermissionChannel } from '../../../gateway/core/index.js';
import { newPermissionRequest, resolutionOf } from '../../../gateway/permissions/permissionRecords.js';
import { storedOutcome } from '../../../gateway/permissions/replicaDecisions.js';
import { MemoryPermissions, newSession } from '../../fixtures/permissionDoubles.js';

/** A request another replica ended as `status` (via `via`), read back as its waiter here would. */
async function endedElsewhere(status: PermissionRequestStatus, via: PermissionChannel) {
  const store = new MemoryPermissions();
  const request = newPermissionRequest({
    id: 'preq_1', session: newSession(), invocationId: 'inv_1', toolName: 'mcp__notes__write_note',
    action: { action: 'tool.call', resource: 'mcp__custom-0a1b2c3d4e5f__write_note' }, arguments: { text: 'x' }, nowMs: 0, approvalTimeoutMs: 1000, scrub: (text) => text,
  });
  await store.addRequest(request);
  await store.resolveRequest(request.id, resolutionOf({ status, basis: null, via, at: new Date(1000).toISOString() }));
  const outcome = await storedOutcome(store, request.id);
  return outcome && 'error' in outcome ? outcome.error : undefined;
}

describe('an action whose request another replica ended', () => {
  it('expired: says so as the local expiry does, naming the tool as the agent called it', async () => {
    const error = await endedElsewhere('expired', 'timeout');
    expect(error).toMatchObject({ code: 'permission_expired', details: { requestId: 'preq_1' } });
    expect(error!.message).toMatch(/^Nobody decided within 1 s whether this call to mcp__notes__write_note may run \(permission request preq_1\); the action did not run\. Ask the user/);
  });

  it('cancelled: names the tool and how it ended', async () => {
    const error = await endedElsewhere('cancelled', 'session_end');
    expect(error).toMatchObject({ code: 'cancelled' });
    expect(error!.message).toBe('The permission request preq_1 for mcp__notes__write_note was cancelled (via session_end); the action did not run.');
  });
});
