-- PostgreSQL twin of ../006_replica_owners.sql (same number, same tables and columns): pending work
-- has an owner replica, and every running replica keeps a heartbeat row in `replicas`; a replica's
-- start-up sweep ends only the pending work whose owner's heartbeat stopped.

ALTER TABLE permission_requests ADD COLUMN replica_id TEXT;
ALTER TABLE extraction_jobs ADD COLUMN replica_id TEXT;
ALTER TABLE download_jobs ADD COLUMN replica_id TEXT;
-- A running Invocation's row (PostgreSQL's audit; the embedded store keeps its audit in the audit log).
ALTER TABLE invocations ADD COLUMN replica_id TEXT;

CREATE TABLE replicas (
  id TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
);
