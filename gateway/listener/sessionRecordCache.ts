import type { ConnectorSelectionReader, EventHub, SessionRecord, SessionStore } from '../core/index.js';

export interface SessionRecordCacheDeps {
  sessions: SessionStore;
  /** Tells when an approval mode changed (`session.updated`). */
  events?: EventHub;
  /** Tells when a connector selection changed. */
  connectors: ConnectorSelectionReader;
  /** This process is the only writer of Sessions (the embedded store); otherwise every read goes to the store. */
  sessionsOwned?: boolean;
}

/** Reads one live MCP session's Session record; `close` stops listening for changes. */
export interface SessionRecordReader {
  read(): Promise<SessionRecord | undefined>;
  close(): void;
}

/**
 * The Session record of one live MCP session, read from the store once and then kept until a change
 * that can touch it: an approval-mode switch (the permission gate publishes `session.updated`) or a
 * connector selection change (every one goes through the selection service). Every tool call needs
 * the record, and with the embedded store nobody else writes it, so the store is not read per call.
 * With a shared store another replica may write it: then every read goes to the store.
 */
export function sessionRecordCache(deps: SessionRecordCacheDeps, sessionId: string): SessionRecordReader {
  const fromStore = () => deps.sessions.get(sessionId);
  if (!deps.sessionsOwned || !deps.events) return { read: fromStore, close: () => {} };
  let kept: SessionRecord | undefined;
  // Bumped by every change, so a read that started before one never keeps what it read.
  let version = 0;
  const forget = () => {
    version += 1;
    kept = undefined;
  };
  const unsubscribeEvents = deps.events.subscribe((event) => {
    if (event.type === 'session.updated' && event.sessionId === sessionId) forget();
  });
  const unsubscribeSelection = deps.connectors.onChange(forget);
  return {
    read: async () => {
      if (kept) return kept;
      const readAt = version;
      const record = await fromStore();
      if (record && readAt === version) kept = record;
      return record;
    },
    close: () => {
      unsubscribeEvents();
      unsubscribeSelection();
      forget();
    },
  };
}
