-- Artifacts (seed §6.2, §9; GATEWAY.md §8): plans made before anything is fetched, and download
-- jobs whose every transition (with the bytes done) is journaled. Never deleted (audit).

CREATE TABLE artifact_plans (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  invocation_id TEXT NOT NULL,
  source_invocation_id TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  source_record_id TEXT NOT NULL,
  -- The candidate as the source offered it (JSON), copied from the Invocation's CAS result.
  candidate TEXT NOT NULL,
  destination_path TEXT NOT NULL,
  status TEXT NOT NULL,
  authorization_id TEXT,
  created_at TEXT NOT NULL,
  decided_at TEXT
);
CREATE INDEX artifact_plans_by_session ON artifact_plans (session_id, created_at);

CREATE TABLE download_jobs (
  id TEXT PRIMARY KEY,
  plan_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  source_record_id TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  url TEXT NOT NULL,
  destination_path TEXT NOT NULL,
  media_type TEXT NOT NULL,
  license TEXT NOT NULL,
  state TEXT NOT NULL,
  bytes_done INTEGER NOT NULL,
  total_bytes INTEGER,
  sha256 TEXT,
  expected_checksum TEXT,
  attempts INTEGER NOT NULL,
  error_code TEXT,
  error_message TEXT,
  authorization_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE INDEX download_jobs_by_session ON download_jobs (session_id, created_at);
CREATE INDEX download_jobs_by_state ON download_jobs (state);
