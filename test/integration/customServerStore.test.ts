import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CustomServerConfig } from '../../catalog/index.js';
import { silentLogger } from '../../gateway/core/index.js';
import { CustomServerFileStore } from '../../storage/index.js';
import { openStorage } from '../../storage/openStorage.js';

const SECRET_ENV = 'sk-live-ENV-5f9c2e71';
const SECRET_HEADER = 'Bearer HDR-a81d44c0';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scigate-enc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function servers(name = 'Lab tools'): CustomServerConfig[] {
  const common = { enabled: false, timeoutSeconds: 60, createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z' };
  return [
    { ...common, id: 'custom-0123456789ab', name, transport: 'stdio', command: 'node', args: ['server.js'], env: { LAB_API_KEY: SECRET_ENV } },
    { ...common, id: 'custom-ba9876543210', name: 'Remote', transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: SECRET_HEADER }, auth: { mode: 'none' } },
  ];
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('custom-mcp-servers.enc', () => {
  it('creates a 32-byte model-secrets.key with mode 0600 on first use', async () => {
    await CustomServerFileStore.open(dir);
    const key = await readFile(join(dir, 'model-secrets.key'));
    expect(key).toHaveLength(32);
    expect(await modeOf(join(dir, 'model-secrets.key'))).toBe(0o600);
  });

  it('holds no secret in clear, is mode 0600 and reads back what was saved', async () => {
    const store = await CustomServerFileStore.open(dir);
    await store.save(servers());
    const path = join(dir, 'custom-mcp-servers.enc');
    const raw = await readFile(path);
    for (const secret of [SECRET_ENV, SECRET_HEADER, 'LAB_API_KEY', 'Lab tools', 'server.js']) {
      expect(raw.includes(Buffer.from(secret, 'utf8'))).toBe(false);
      expect(raw.toString('latin1')).not.toContain(secret);
    }
    expect(await modeOf(path)).toBe(0o600);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await (await CustomServerFileStore.open(dir)).load()).toEqual(servers());
  });

  it('a wrong key is a clear start-up error, never an empty configuration', async () => {
    await (await CustomServerFileStore.open(dir)).save(servers());
    await writeFile(join(dir, 'model-secrets.key'), randomBytes(32), { mode: 0o600 });
    await expect(CustomServerFileStore.open(dir)).rejects.toThrow(/Cannot decrypt .*custom-mcp-servers\.enc with .*model-secrets\.key.*Restore the original key/);
  });

  it('a lost key is not silently replaced while encrypted data exists', async () => {
    await (await CustomServerFileStore.open(dir)).save(servers());
    await unlink(join(dir, 'model-secrets.key'));
    await expect(CustomServerFileStore.open(dir)).rejects.toThrow(/custom-mcp-servers\.enc exists but .*model-secrets\.key is missing/);
    await writeFile(join(dir, 'model-secrets.key'), randomBytes(8));
    await expect(CustomServerFileStore.open(dir)).rejects.toThrow(/must hold exactly 32 bytes/);
  });

  it('--secret-key-file: the named key is used instead of model-secrets.key, never created, and a missing or short one says what to do', async () => {
    const keyFile = join(dir, 'shared.key');
    await expect(CustomServerFileStore.open(dir, keyFile)).rejects.toThrow(/Cannot read the secret key file .*shared\.key .*--secret-key-file \(SCIGATE_SECRET_KEY_FILE\).*head -c 32 \/dev\/urandom/);
    await writeFile(keyFile, randomBytes(16));
    await expect(CustomServerFileStore.open(dir, keyFile)).rejects.toThrow(/shared\.key \(--secret-key-file\) must hold exactly 32 bytes but holds 16/);
    await writeFile(keyFile, randomBytes(32));
    await (await CustomServerFileStore.open(dir, keyFile)).save(servers());
    expect(await readdir(dir)).not.toContain('model-secrets.key');
    expect(await (await CustomServerFileStore.open(dir, keyFile)).load()).toEqual(servers());
  });

  it('queued saves land in order: the last one wins', async () => {
    const store = await CustomServerFileStore.open(dir);
    await Promise.all(Array.from({ length: 6 }, (_, i) => store.save(servers(`name ${i}`))));
    expect((await store.load())[0]!.name).toBe('name 5');
  });
});

describe('closing the embedded store', () => {
  it('waits for the saves of the secret files in flight and refuses later ones, so nothing lands in a stopped gateway data directory', async () => {
    const storage = await openStorage({ dataDir: dir, log: silentLogger });
    const login = { signature: 's', redirectUri: 'http://127.0.0.1/cb', clientInformation: {}, tokens: { access_token: 'a' }, discovery: {} };
    const saves = [storage.customServerStore.save(servers()), storage.oauthLogins.save('custom-0123456789ab', login)];
    await storage.close();
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['custom-mcp-servers.enc', 'mcp-oauth.enc']));
    await Promise.all(saves);
    await expect(storage.customServerStore.save(servers('Later'))).rejects.toThrow(/custom-mcp-servers\.enc was not saved: the gateway is shutting down/);
    await expect(storage.oauthLogins.save('custom-0123456789ab', undefined)).rejects.toThrow(/mcp-oauth\.enc was not saved/);
    expect(await (await CustomServerFileStore.open(dir)).load()).toEqual(servers());
  });
});
