import {
  compareInvocations, interruptedInvocation, isAfterCursor, type InvocationCursor, type InvocationIntent, type InvocationRecord,
  type InvocationStore,
} from '../../gateway/core/index.js';
import type { MemoryCas } from './memoryCas.js';
import { copy, duplicateKey } from './memoryRows.js';

/** Invocation audit rows in memory, ordered like the embedded store; blobs go to the shared MemoryCas. */
export class MemoryInvocationStore implements InvocationStore {
  protected readonly byId = new Map<string, InvocationRecord>();
  private readonly open = new Map<string, InvocationIntent>();

  constructor(private readonly blobStore?: MemoryCas) {}

  async begin(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void> {
    if (this.byId.has(intent.id) || this.open.has(intent.id)) throw duplicateKey('invocations', intent.id);
    this.open.set(intent.id, copy(intent));
    await this.blobStore?.put(argumentsBytes);
  }

  async complete(invocation: InvocationRecord, resultBytes: Uint8Array | null): Promise<void> {
    if (this.byId.has(invocation.id)) throw duplicateKey('invocations', invocation.id);
    this.open.delete(invocation.id);
    this.byId.set(invocation.id, copy(invocation));
    if (resultBytes) await this.blobStore?.put(resultBytes);
  }

  async interruptUnfinished(at: string): Promise<number> {
    const count = this.open.size;
    for (const intent of this.open.values()) this.byId.set(intent.id, interruptedInvocation(intent, at));
    this.open.clear();
    return count;
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const invocation = this.byId.get(id);
    return invocation && copy(invocation);
  }

  async listBySession(sessionId: string, options: { limit?: number; before?: InvocationCursor } = {}): Promise<InvocationRecord[]> {
    return [...this.byId.values()]
      .filter((i) => i.sessionId === sessionId && isAfterCursor(i, options.before))
      .sort(compareInvocations)
      .slice(0, options.limit ?? 100)
      .map(copy);
  }
}
