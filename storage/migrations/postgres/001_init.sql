-- PostgreSQL twin of ../001_init.sql (same number, same tables and columns): the shared repositories
-- run on both. rowid keeps insertion order for ties, as SQLite's implicit rowid does; byte counts are BIGINT.

-- Sessions: one row per MCP session (HTTP or stdio).
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  project_id TEXT NOT NULL,
  transport TEXT NOT NULL,
  client_name TEXT,
  client_version TEXT,
  approval_mode TEXT NOT NULL,
  connectors TEXT,
  created_at TEXT NOT NULL,
  ended_at TEXT
);

-- Invocations: the audit row every governed call writes, success, failure or denial.
CREATE TABLE invocations (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  source_id TEXT,
  tool_id TEXT,
  tool_name TEXT NOT NULL,
  origin TEXT NOT NULL,
  status TEXT NOT NULL,
  error_code TEXT,
  retryable INTEGER,
  attempts INTEGER NOT NULL,
  cache_hit INTEGER NOT NULL,
  queue_wait_ms BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  size_bytes BIGINT,
  cas_hash TEXT,
  arguments_hash TEXT,
  authorization_id TEXT,
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL
);
CREATE INDEX invocations_by_session ON invocations (session_id, started_at);

-- The CAS (results and arguments): content-addressed by sha256, so a blob is stored once however many
-- Invocations (on however many replicas) produce it. bytea, not large objects: blobs are bounded by the
-- response limit, a bytea row is written in the same transaction model, backed up by pg_dump and
-- replicated like any row, and needs no lo_unlink bookkeeping; TOAST keeps large values out of line.
CREATE TABLE cas_blobs (
  hash TEXT PRIMARY KEY,
  bytes BYTEA NOT NULL,
  size_bytes BIGINT NOT NULL
);
