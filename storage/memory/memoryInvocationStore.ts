import type { InvocationRecord, InvocationStore } from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** Invocation audit rows in memory, ordered like the embedded store. */
export class MemoryInvocationStore implements InvocationStore {
  protected readonly byId = new Map<string, InvocationRecord>();

  async record(invocation: InvocationRecord): Promise<void> {
    if (this.byId.has(invocation.id)) throw duplicateKey('invocations', invocation.id);
    this.byId.set(invocation.id, copy(invocation));
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const invocation = this.byId.get(id);
    return invocation && copy(invocation);
  }

  async listBySession(sessionId: string, options: { limit?: number } = {}): Promise<InvocationRecord[]> {
    const own = byKey([...this.byId.values()].filter((i) => i.sessionId === sessionId), (i) => i.id);
    return byKey(own, (i) => i.startedAt, 'desc').slice(0, options.limit ?? 100).map(copy);
  }
}
