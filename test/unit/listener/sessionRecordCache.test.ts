import { describe, expect, it, vi } from 'vitest';
import { EventHub, type ConnectorSelectionReader } from '../../../gateway/core/index.js';
import { sessionRecordCache } from '../../../gateway/listener/sessionRecordCache.js';
import { MemorySessions, newSession } from '../../fixtures/permissionDoubles.js';

/** A selection reader whose changes the test fires. */
function selection(): ConnectorSelectionReader & { change(): void } {
  const listeners = new Set<() => void>();
  return {
    effective: async (session) => session.connectors,
    onChange: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    change: () => listeners.forEach((l) => l()),
  };
}

async function setup(sessionsOwned: boolean) {
  const sessions = new MemorySessions();
  await sessions.create(newSession());
  const events = new EventHub();
  const connectors = selection();
  const reads = vi.spyOn(sessions, 'get');
  const cache = sessionRecordCache({ sessions, events, connectors, sessionsOwned }, 'ses_perm');
  return { sessions, events, connectors, reads, cache };
}

describe('the Session record of a live MCP session', () => {
  it('is read from the store once while nothing changes it', async () => {
    const { cache, reads } = await setup(true);
    for (let i = 0; i < 5; i++) expect((await cache.read())?.approvalMode).toBe('ask_for_dangerous');
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('is read again after an approval-mode switch of this Session and after a selection change', async () => {
    const { cache, sessions, events, connectors, reads } = await setup(true);
    await cache.read();
    const updated = await sessions.setApprovalMode('ses_perm', 'always_allow');
    events.publish('session.updated', 'ses_other', {});
    expect((await cache.read())?.approvalMode).toBe('ask_for_dangerous');
    events.publish('session.updated', 'ses_perm', updated);
    expect((await cache.read())?.approvalMode).toBe('always_allow');
    await sessions.setConnectors('ses_perm', ['arxiv']);
    connectors.change();
    expect((await cache.read())?.connectors).toEqual(['arxiv']);
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('does not keep a record read before a change that landed meanwhile', async () => {
    const { cache, sessions, events } = await setup(true);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const realGet = sessions.get.bind(sessions);
    vi.spyOn(sessions, 'get').mockImplementationOnce(async (id) => {
      const stale = await realGet(id);
      await held;
      return stale;
    });
    const first = cache.read();
    const updated = await sessions.setApprovalMode('ses_perm', 'always_allow');
    events.publish('session.updated', 'ses_perm', updated);
    release();
    expect((await first)?.approvalMode).toBe('ask_for_dangerous');
    expect((await cache.read())?.approvalMode).toBe('always_allow');
  });

  it('with a store other replicas write too, reads the store every time', async () => {
    const { cache, reads } = await setup(false);
    for (let i = 0; i < 3; i++) await cache.read();
    expect(reads).toHaveBeenCalledTimes(3);
  });
});
