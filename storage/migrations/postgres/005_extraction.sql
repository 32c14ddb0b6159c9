-- PostgreSQL twin of ../005_extraction.sql (same number, same tables and columns): the shared repositories
-- run on both. rowid keeps insertion order for ties, as SQLite's implicit rowid does; byte counts are BIGINT.

-- PDF extraction (seed §6.3, §9): one row per paper_extract_pdf job, persisted at every transition,
-- and one PaperAcquisition per successful extraction.

CREATE TABLE extraction_jobs (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  invocation_id TEXT,
  input TEXT NOT NULL,
  download_job_id TEXT,
  pdf_path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  status TEXT NOT NULL,
  page_count INTEGER,
  character_count BIGINT,
  text_path TEXT,
  manifest_path TEXT,
  warnings TEXT NOT NULL,
  error_code TEXT,
  error_message TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  ended_at TEXT
);
CREATE INDEX extraction_jobs_by_session ON extraction_jobs (session_id, created_at);
-- "The same bytes extracted before in the Session" and the start-up sweep of unfinished jobs.
CREATE INDEX extraction_jobs_by_bytes ON extraction_jobs (session_id, sha256, status);
CREATE INDEX extraction_jobs_by_status ON extraction_jobs (status);

-- Created only after a successful extraction; never deleted (audit).
CREATE TABLE paper_acquisitions (
  id TEXT PRIMARY KEY,
  rowid BIGSERIAL NOT NULL,
  session_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  extraction_job_id TEXT NOT NULL UNIQUE,
  download_job_id TEXT,
  pdf_path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  title TEXT,
  authors TEXT NOT NULL,
  doi TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX paper_acquisitions_by_session ON paper_acquisitions (session_id, created_at);
