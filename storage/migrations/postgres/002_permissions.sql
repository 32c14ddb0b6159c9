-- PostgreSQL twin of ../002_permissions.sql (same number, same tables and columns): the shared repositories
-- run on both. rowid keeps insertion order for ties, as SQLite's implicit rowid does; byte counts are BIGINT.

-- Permissions (seed §8, GATEWAY.md §7): the Session's permission epoch, requests, Grants and
-- single-use authorizations.

-- Rotated on every approval-mode change; decisions made for an older epoch get 409.
ALTER TABLE sessions ADD COLUMN permission_epoch INTEGER NOT NULL DEFAULT 0;
-- never_ask was a short-lived name for always_allow (seed §11).
UPDATE sessions SET approval_mode = 'always_allow' WHERE approval_mode = 'never_ask';

-- One row per dangerous action that waited for a human; never deleted (audit).
CREATE TABLE permission_requests (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  invocation_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  action TEXT NOT NULL,
  resource TEXT NOT NULL,
  arguments_preview TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  status TEXT NOT NULL,
  resolution TEXT,
  resolved_via TEXT,
  grant_id TEXT,
  authorization_id TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE INDEX permission_requests_by_session ON permission_requests (session_id, created_at);
CREATE INDEX permission_requests_by_status ON permission_requests (status);

-- Reusable, revocable Session capabilities (allow_matching).
CREATE TABLE permission_grants (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  action TEXT NOT NULL,
  resource TEXT NOT NULL,
  request_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX permission_grants_by_subject ON permission_grants (session_id, action, resource);

-- Append-only: one per allow, deny or Grant hit; the Invocation references it.
CREATE TABLE permission_authorizations (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  invocation_id TEXT NOT NULL,
  request_id TEXT,
  grant_id TEXT,
  action TEXT NOT NULL,
  resource TEXT NOT NULL,
  basis TEXT NOT NULL,
  allowed INTEGER NOT NULL,
  via TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX permission_authorizations_by_session ON permission_authorizations (session_id, created_at);
