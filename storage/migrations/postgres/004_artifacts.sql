-- PostgreSQL twin of ../004_artifacts.sql (same number, same tables and columns): the shared repositories
-- run on both. rowid keeps insertion order for ties, as SQLite's implicit rowid does; byte counts are BIGINT.

-- Artifacts (seed §6.2, §9; GATEWAY.md §8): plans made before anything is fetched, and download
-- jobs whose every transition (with the bytes done) is journaled. Never deleted (audit).

CREATE TABLE artifact_plans (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
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
  rowid BIGSERIAL NOT NULL,
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
  bytes_done BIGINT NOT NULL,
  total_bytes BIGINT,
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
