-- Custom server configuration and OAuth logins shared by the replicas (issue 18). The embedded twin
-- (../007_encrypted_config.sql) creates nothing: one process keeps them in its encrypted files.
--
-- Each row holds one server's (one login's) JSON as AES-256-GCM ciphertext (storage/encryptedFile.ts)
-- under the key every replica shares, with the row's id bound as additional data, so a row cannot be
-- passed off as another. One row per server, not one blob for the whole set: two replicas editing
-- different servers touch different rows, and an edit of the same server is a conditional UPDATE on
-- `version` (the one that lost is told to reload instead of silently overwriting the other).

CREATE TABLE custom_servers (
  id TEXT PRIMARY KEY,
  -- The secrets revision of this row's last write.
  version BIGINT NOT NULL,
  -- Insertion order: the server list keeps the order servers were added in.
  position BIGSERIAL NOT NULL,
  ciphertext BYTEA NOT NULL
);

CREATE TABLE oauth_logins (
  server_id TEXT PRIMARY KEY,
  version BIGINT NOT NULL,
  ciphertext BYTEA NOT NULL
);

-- One row. `revision` is bumped in the same transaction as every write to the two tables above: a
-- replica that sees it change reloads the servers and logins. `key_check` is a known text encrypted
-- under the shared key by the first replica (or migrate): a replica with another key is refused at
-- start instead of failing on every row.
CREATE TABLE secret_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  revision BIGINT NOT NULL,
  key_check BYTEA
);
INSERT INTO secret_state (id, revision) VALUES (1, 0);
