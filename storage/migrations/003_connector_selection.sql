-- Projects: group Sessions (?project=) and hold the connector selection they inherit (NULL: inherit global).
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  connectors TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Global settings as JSON values by key (e.g. 'connectors': the global connector selection).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
