-- PostgreSQL twin of ../003_connector_selection.sql (same number, same tables and columns): the shared repositories
-- run on both. rowid keeps insertion order for ties, as SQLite's implicit rowid does; byte counts are BIGINT.

-- Projects: group Sessions (?project=) and hold the connector selection they inherit (NULL: inherit global).
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  name TEXT NOT NULL,
  connectors TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Global settings as JSON values by key (e.g. 'connectors': the global connector selection).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  value TEXT NOT NULL
);
