-- Custom server configuration and OAuth logins in PostgreSQL (issue 18): see postgres/007_encrypted_config.sql.
-- The embedded store needs no table here: one process uses its data directory, and it keeps both in
-- the encrypted files custom-mcp-servers.enc and mcp-oauth.enc beside the database (seed §5.3).
-- This file keeps the two engines' migration numbers in step.
SELECT 1;
