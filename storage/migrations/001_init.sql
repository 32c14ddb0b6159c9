-- Sessions: one row per MCP session (HTTP or stdio).
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
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
  queue_wait_ms INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  size_bytes INTEGER,
  cas_hash TEXT,
  arguments_hash TEXT,
  authorization_id TEXT,
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL
);
CREATE INDEX invocations_by_session ON invocations (session_id, started_at);
