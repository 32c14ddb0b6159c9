-- Pending work has an owner (issue 18): the replica that created a permission request, an extraction
-- job or a download job is stored with it, so a replica starting on a shared store sweeps only the
-- work of replicas that are dead, never the live work of the others. `replicas` holds one heartbeat
-- row per running replica. The embedded store is used by one process at a time: every owner it finds
-- at start-up is dead, so it keeps the columns (one schema for both engines) and never reads `replicas`.

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
