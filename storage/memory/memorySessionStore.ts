import type { ApprovalMode, SessionRecord, SessionStore } from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** Sessions in memory, with the ordering and semantics of the embedded store (one contract suite runs both). */
export class MemorySessionStore implements SessionStore {
  protected readonly byId = new Map<string, SessionRecord>();

  async create(session: SessionRecord): Promise<void> {
    if (this.byId.has(session.id)) throw duplicateKey('sessions', session.id);
    this.byId.set(session.id, copy(session));
  }

  async end(id: string, endedAt: string): Promise<void> {
    const session = this.byId.get(id);
    if (session && session.endedAt === null) session.endedAt = endedAt;
  }

  async endAllOpen(endedAt: string): Promise<number> {
    const open = [...this.byId.values()].filter((session) => session.endedAt === null);
    for (const session of open) session.endedAt = endedAt;
    return open.length;
  }

  async setApprovalMode(id: string, mode: ApprovalMode): Promise<SessionRecord> {
    const session = this.byId.get(id);
    if (!session) throw new Error(`session ${id} does not exist`);
    if (session.approvalMode !== mode) {
      session.approvalMode = mode;
      session.permissionEpoch += 1;
    }
    return copy(session);
  }

  async setConnectors(id: string, connectors: string[] | null): Promise<void> {
    const session = this.byId.get(id);
    if (session) session.connectors = copy(connectors);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const session = this.byId.get(id);
    return session && copy(session);
  }

  async list(): Promise<SessionRecord[]> {
    const byIdAsc = byKey(this.byId.values(), (s) => s.id);
    return byKey(byIdAsc, (s) => s.createdAt, 'desc').map(copy);
  }
}
