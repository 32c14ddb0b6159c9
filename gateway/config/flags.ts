/** One command-line flag, its environment variable and how to read it. */
export interface FlagSpec {
  name: string;
  env: string;
  kind: 'string' | 'port' | 'boolean' | 'hosts' | 'choice' | 'json' | 'seconds' | 'count';
  choices?: readonly string[];
  /** A JSON flag's example value, shown when its value is not JSON. */
  example?: string;
  default?: string;
  help: string;
}

export const FLAGS = {
  host: { name: 'host', env: 'SCIGATE_HOST', kind: 'string', default: '127.0.0.1', help: 'interface to listen on' },
  port: { name: 'port', env: 'SCIGATE_PORT', kind: 'port', default: '7410', help: 'HTTP port (MCP at /mcp, admin API at /api)' },
  dataDir: { name: 'data-dir', env: 'SCIGATE_DATA_DIR', kind: 'string', default: './.scigate', help: 'where the database, CAS and token live' },
  isolateSources: { name: 'isolate-sources', env: 'SCIGATE_ISOLATE_SOURCES', kind: 'boolean', default: 'false', help: 'run each built-in source as its own stdio child process' },
  toolPrefix: { name: 'tool-prefix', env: 'SCIGATE_TOOL_PREFIX', kind: 'choice', choices: ['mcp', 'short'], default: 'mcp', help: 'tool names mcp__<source>__<tool> (mcp) or <source>__<tool> (short)' },
  allowedHosts: { name: 'allowed-hosts', env: 'SCIGATE_ALLOWED_HOSTS', kind: 'hosts', default: '', help: 'extra Host/Origin names to accept, comma-separated, without scheme or port (e.g. scigate.example.com,10.0.0.5)' },
  logLevel: { name: 'log-level', env: 'SCIGATE_LOG_LEVEL', kind: 'choice', choices: ['debug', 'info', 'warn', 'error', 'silent'], default: 'info', help: 'log verbosity (logs go to stderr)' },
  project: { name: 'project', env: 'SCIGATE_PROJECT', kind: 'string', default: 'default', help: 'project id of the stdio session' },
  adminPort: { name: 'admin-port', env: 'SCIGATE_ADMIN_PORT', kind: 'port', default: '0', help: 'also serve the admin API on this port (0: off)' },
  sourceLimits: { name: 'source-limits', env: 'SCIGATE_SOURCE_LIMITS', kind: 'json', example: '{"arxiv":{"minTimeMs":0}}', default: '{}', help: 'per-source limit overrides as JSON, e.g. {"arxiv":{"minTimeMs":0}}' },
  approvalTimeout: { name: 'approval-timeout', env: 'SCIGATE_APPROVAL_TIMEOUT', kind: 'seconds', default: '900', help: 'seconds a dangerous action waits for a human decision (then permission_expired)' },
  elicitation: { name: 'elicitation', env: 'SCIGATE_ELICITATION', kind: 'choice', choices: ['on', 'off'], default: 'on', help: 'also ask for permission inside MCP clients that support elicitation' },
  sessionIdleTimeout: { name: 'session-idle-timeout', env: 'SCIGATE_SESSION_IDLE_TIMEOUT', kind: 'seconds', default: '1800', help: 'seconds an MCP session may stay without any request before it is closed and ended' },
  maxSessions: { name: 'max-sessions', env: 'SCIGATE_MAX_SESSIONS', kind: 'count', default: '1000', help: 'most open MCP sessions; a new one closes the longest-idle session' },
  allowPrivateUrls: { name: 'allow-private-urls', env: 'SCIGATE_ALLOW_PRIVATE_URLS', kind: 'boolean', default: 'false', help: 'let custom http/sse servers use private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); loopback is always allowed' },
  downloadMirrors: { name: 'download-mirrors', env: 'SCIGATE_DOWNLOAD_MIRRORS', kind: 'json', example: '{"https://arxiv.org":"http://127.0.0.1:8123"}', default: '{}', help: 'fetch artifact downloads of these public origins from loopback mirrors (tests, offline runs) as JSON, e.g. {"https://arxiv.org":"http://127.0.0.1:8123"}; every check still applies to the public URL' },
  extractionLimits: { name: 'extraction-limits', env: 'SCIGATE_EXTRACTION_LIMITS', kind: 'json', example: '{"timeoutMs":60000}', default: '{}', help: 'paper_extract_pdf limits as JSON: maxBytes (default 67108864), maxPages (2000), maxHeapMb (256, the worker heap), timeoutMs (120000)' },
  store: { name: 'store', env: 'SCIGATE_STORE', kind: 'string', default: 'embedded', help: 'where sessions, audit and blobs live: embedded (sql.js + journal + CAS in the data dir) or postgres://user:password@host:5432/database (several replicas share it)' },
  secretKeyFile: { name: 'secret-key-file', env: 'SCIGATE_SECRET_KEY_FILE', kind: 'string', help: 'the 32-byte key custom server config and OAuth logins are encrypted with (default: <data-dir>/model-secrets.key); replicas on one PostgreSQL must all use the same key' },
  to: { name: 'to', env: 'SCIGATE_MIGRATE_TO', kind: 'string', help: 'the PostgreSQL to move the data dir into: postgres://user:password@host:5432/database' },
  redis: { name: 'redis', env: 'SCIGATE_REDIS', kind: 'string', help: 'share source limits, the result cache and events with the other replicas through this Redis, e.g. redis://redis:6379 (default: this process only)' },
  replicaTimeout: { name: 'replica-timeout', env: 'SCIGATE_REPLICA_TIMEOUT', kind: 'seconds', default: '30', help: 'replicas on one PostgreSQL: seconds a replica may miss its heartbeat (sent every sixth of this) before the others end its pending requests and calls' },
  auditRetentionDays: { name: 'audit-retention-days', env: 'SCIGATE_AUDIT_RETENTION_DAYS', kind: 'count', help: 'delete audit history (tool calls with their arguments and results) older than this many days; unset keeps all of it' },
  rotate: { name: 'rotate', env: 'SCIGATE_TOKEN_ROTATE', kind: 'boolean', default: 'false', help: 'replace the admin token with a new one' },
} as const satisfies Record<string, FlagSpec>;

export type FlagKey = keyof typeof FLAGS;

/** Flags each command accepts. */
export const COMMAND_FLAGS: Record<'serve' | 'stdio' | 'source' | 'token' | 'migrate', FlagKey[]> = {
  serve: ['host', 'port', 'dataDir', 'store', 'isolateSources', 'toolPrefix', 'allowedHosts', 'sourceLimits', 'approvalTimeout', 'elicitation', 'allowPrivateUrls', 'sessionIdleTimeout', 'maxSessions', 'downloadMirrors', 'extractionLimits', 'auditRetentionDays', 'redis', 'secretKeyFile', 'replicaTimeout', 'logLevel'],
  stdio: ['dataDir', 'store', 'project', 'isolateSources', 'toolPrefix', 'host', 'adminPort', 'allowedHosts', 'sourceLimits', 'approvalTimeout', 'elicitation', 'allowPrivateUrls', 'downloadMirrors', 'extractionLimits', 'auditRetentionDays', 'redis', 'secretKeyFile', 'replicaTimeout', 'logLevel'],
  source: ['logLevel', 'redis'],
  token: ['dataDir', 'rotate'],
  migrate: ['dataDir', 'to', 'secretKeyFile', 'logLevel'],
};
