import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, silentLogger, type PermissionRequestRecord, type SessionRecord } from '../../gateway/core/index.js';
import { openPostgresStorage } from '../../storage/index.js';
import { parseCommandLine } from '../../gateway/config/index.js';
import { storeFlag } from '../../gateway/commands/storeWiring.js';
import { startPostgres, type PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';
import { freePort } from '../fixtures/freePort.js';

let server: PostgresServer;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await sharedPostgres();
});
afterAll(async () => {
  for (const storage of opened) await storage.close().catch(() => {});
  await server.stop();
});

async function open(url: string) {
  const storage = await openPostgresStorage({ url, log: silentLogger });
  opened.push(storage);
  return storage;
}

const session: SessionRecord = {
  id: 'ses_1', projectId: 'default', transport: 'http', clientName: 'c', clientVersion: '1', approvalMode: 'ask_for_dangerous',
  permissionEpoch: 0, connectors: null, createdAt: '2026-12-01T00:00:00.000Z', endedAt: null,
};
const request: PermissionRequestRecord = {
  id: 'preq_1', sessionId: 'ses_1', projectId: 'default', invocationId: 'inv_1', toolName: 't', action: 'download', resource: 'r',
  argumentsPreview: '{}', epoch: 0, status: 'pending', resolution: null, resolvedVia: null, grantId: null, authorizationId: null,
  createdAt: '2026-12-01T00:00:00.000Z', expiresAt: '2026-12-01T00:15:00.000Z', resolvedAt: null,
};

describe('two replicas on one PostgreSQL', () => {
  it('starting together, each migrates or waits for the other under the advisory lock: every migration runs once', async () => {
    const url = await server.freshSchema();
    const [a, b, c] = await Promise.all([open(url), open(url), open(url)]);
    const versions = (await a.database.all('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version));
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await b.sessions.create(session);
    expect(await c.sessions.get('ses_1')).toEqual(session);
  });

  it('the first decision wins: of two replicas resolving one request at once, exactly one succeeds', async () => {
    const url = await server.freshSchema();
    const [a, b] = await Promise.all([open(url), open(url)]);
    await a.permissions.addRequest(request);
    const resolve = (via: 'admin' | 'elicitation', at: string) =>
      ({ status: 'allowed', resolution: 'allow_once', resolvedVia: via, grantId: null, authorizationId: null, resolvedAt: at }) as const;
    const won = await Promise.all([a.permissions.resolveRequest('preq_1', resolve('admin', 'A')), b.permissions.resolveRequest('preq_1', resolve('elicitation', 'B'))]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const stored = await b.permissions.getRequest('preq_1');
    expect(stored?.resolvedAt).toBe(won[0] ? 'A' : 'B');
  });

  it('the same result blob stored by two replicas at once is one row', async () => {
    const url = await server.freshSchema();
    const [a, b] = await Promise.all([open(url), open(url)]);
    const bytes = new TextEncoder().encode('{"records":[1,2,3]}');
    const [ha, hb] = await Promise.all([a.cas.put(bytes), b.cas.put(bytes)]);
    expect(ha).toBe(hb);
    expect((await a.database.all('SELECT count(*) AS n FROM cas_blobs'))[0]!.n).toBe('1');
    expect((await b.cas.get(ha))?.toString()).toBe('{"records":[1,2,3]}');
  });
});

describe('opening a PostgreSQL store that cannot be used', () => {
  async function refusal(url: string): Promise<GatewayError> {
    const error = await openPostgresStorage({ url, log: silentLogger }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }

  it('a wrong password says to fix the login, and never shows the password', async () => {
    const error = await refusal(server.url({ password: 'not-the-secret-pw' }));
    expect(error.code).toBe('storage_unavailable');
    expect(error.message).toMatch(/refused the login.*Fix the user name and password in --store/);
    expect(error.message).toContain('scigate:***@127.0.0.1');
    expect(error.message).not.toContain('not-the-secret-pw');
  });

  it('a server that is not running says to start it or fix the host and port', async () => {
    // Nothing listens on a port just taken free: the connection is refused, as by a stopped server.
    const url = `postgres://scigate:down-Secret-7@127.0.0.1:${await freePort()}/postgres`;
    const error = await refusal(url);
    expect(error).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect(error.message).toMatch(/Cannot reach PostgreSQL at .*ECONNREFUSED.*Start PostgreSQL or fix the host and port/);
    expect(error.message).not.toContain('down-Secret-7');
  });

  it('a server that goes away while the gateway runs: calls fail storage_unavailable (retryable, password redacted), the process lives on', async () => {
    const doomed = await startPostgres();
    const storage = await openPostgresStorage({ url: doomed.url(), log: silentLogger });
    await storage.sessions.create(session);
    // Its idle pooled connections are killed with it: the pool must absorb their errors, not crash.
    await doomed.stop();
    const error = await storage.sessions.get('ses_1').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect((error as Error).message).toMatch(/cannot reach its PostgreSQL store at postgres:\/\/scigate:\*\*\*@127\.0\.0\.1:\d+\/postgres .*nothing was kept\. Retry later\./);
    expect((error as Error).message).not.toContain(doomed.password);
    await storage.close();
  });

  it('a database that does not exist says to create it', async () => {
    const error = await refusal(server.url({ database: 'no_such_db' }));
    expect(error.message).toMatch(/no_such_db.*Create it \(createdb\)/);
    expect(error.message).not.toContain(server.password);
  });

  it('--store accepts embedded or a postgres:// URL; anything else is a usage error with the password redacted', () => {
    const flags = (value?: string, env: Record<string, string> = {}) => {
      const parsed = parseCommandLine(['serve', ...(value ? ['--store', value] : [])], env);
      return 'flags' in parsed ? parsed.flags : {};
    };
    expect(storeFlag(flags())).toBeUndefined();
    expect(storeFlag(flags('postgres://u:p@db:5432/scigate'))).toBe('postgres://u:p@db:5432/scigate');
    expect(storeFlag(flags(undefined, { SCIGATE_STORE: 'postgresql://u@db/s' }))).toBe('postgresql://u@db/s');
    expect(() => storeFlag(flags('mysql://u:hunter2@db/scigate'))).toThrow(/--store \(SCIGATE_STORE\) must be "embedded" or postgres:.*u:\*\*\*@db.*postgres:\/\//);
    expect(() => storeFlag(flags('mysql://u:hunter2@db/scigate'))).not.toThrow(/hunter2/);
    expect(() => storeFlag(flags('postgres://u:hunter2@db'))).toThrow(/names no database/);
    expect(() => storeFlag(flags('u:hunter2@db/scigate'))).toThrow(/not a URL/);
    expect(() => storeFlag(flags('u:hunter2@db/scigate'))).not.toThrow(/hunter2/);
  });
});
