import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { CustomServerConfig } from '../../catalog/index.js';
import { secretStoreAdapters, useSecretPlace, type SecretStoreAdapter } from './secretStoreAdapters.js';

const SECRET = 'sk-live-contract-7c1f';
const common = { enabled: false, timeoutSeconds: 60, createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z' };

function stdioServer(id: string, name: string): CustomServerConfig {
  return { ...common, id, name, transport: 'stdio', command: 'node', args: ['server.js'], env: { LAB_API_KEY: SECRET } };
}
function httpServer(id: string, name: string): CustomServerConfig {
  return { ...common, id, name, transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${SECRET}` }, auth: { mode: 'none' } };
}

const A = stdioServer('custom-aaaaaaaaaaaa', 'Lab tools');
const B = httpServer('custom-bbbbbbbbbbbb', 'Remote');
const C = stdioServer('custom-cccccccccccc', 'Third');

/** What every CustomServerStore must do. */
function customServerStoreContract(adapter: SecretStoreAdapter) {
  const place = useSecretPlace(adapter);

  it('is empty until something is saved', async () => {
    const { customServerStore } = await (await place()).open();
    expect(await customServerStore.load()).toEqual([]);
  });

  it('a restart reads back the saved servers, in their order, secrets included', async () => {
    const where = await place();
    await (await where.open()).customServerStore.save([B, A, C]);
    expect(await (await where.open()).customServerStore.load()).toEqual([B, A, C]);
  });

  it('the last save is the set: an edited server is replaced, a left-out one deleted', async () => {
    const where = await place();
    const { customServerStore } = await where.open();
    await customServerStore.load();
    await customServerStore.save([A, B]);
    const renamed = { ...A, name: 'Renamed', updatedAt: '2026-12-02T00:00:00.000Z' };
    await customServerStore.save([renamed, B]);
    await customServerStore.save([renamed]);
    expect(await (await where.open()).customServerStore.load()).toEqual([renamed]);
  });

  it('another key cannot open the saved servers: a clear error, never an empty set', async () => {
    const where = await place();
    await (await where.open()).customServerStore.save([A]);
    await expect(where.open(randomBytes(32)).then((s) => s.customServerStore.load())).rejects.toThrow(/key/);
  });
}

/** What a store several replicas open at once must also do: no replica's change is lost. */
function sharedCustomServerStoreContract(adapter: SecretStoreAdapter) {
  const place = useSecretPlace(adapter);

  it("a server one replica adds survives another replica's save of a set it never saw", async () => {
    const where = await place();
    const [one, two] = [(await where.open()).customServerStore, (await where.open()).customServerStore];
    await one.load();
    await two.load();
    await one.save([A]);
    await two.save([B]);
    expect(await (await where.open()).customServerStore.load()).toEqual([A, B]);
    // A replica deleting what it knew leaves what it did not know.
    await two.save([]);
    expect(await (await where.open()).customServerStore.load()).toEqual([A]);
  });

  it('of two edits of one server from what both read, the second is refused with conflict and changes nothing', async () => {
    const where = await place();
    const [one, two] = [(await where.open()).customServerStore, (await where.open()).customServerStore];
    await one.load();
    await one.save([A]);
    await two.load();
    await one.save([{ ...A, name: 'From one' }]);
    await expect(two.save([{ ...A, name: 'From two' }])).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/another replica.*GET \/api\/mcp\/servers/) });
    expect((await two.load())[0]!.name).toBe('From one');
    // Having read again, its edit goes through.
    await two.save([{ ...A, name: 'From two' }]);
    expect((await one.load())[0]!.name).toBe('From two');
  });

  it("the change token moves with every replica's save, and only then", async () => {
    const where = await place();
    const [one, two] = [(await where.open()).customServerStore, (await where.open()).customServerStore];
    await one.load();
    const before = await two.changeToken!();
    expect(await two.changeToken!()).toBe(before);
    await one.save([A]);
    const afterServer = await two.changeToken!();
    expect(afterServer).not.toBe(before);
    const { oauthLogins } = await where.open();
    await oauthLogins.save(A.id, { signature: 's', redirectUri: 'http://127.0.0.1/cb', clientInformation: {}, tokens: { access_token: 't' }, discovery: {} });
    expect(await two.changeToken!()).not.toBe(afterServer);
  });

  it('the first key used is the key: a replica with another one is refused at open, naming what to set', async () => {
    const where = await place();
    await where.open();
    await expect(where.open(randomBytes(32))).rejects.toThrow(/not the key .* --secret-key-file \(SCIGATE_SECRET_KEY_FILE\)/);
  });
}

describe.each(secretStoreAdapters)('CustomServerStore contract: $name', customServerStoreContract);
describe.each(secretStoreAdapters.filter((a) => a.shared))('CustomServerStore shared by replicas: $name', sharedCustomServerStoreContract);
