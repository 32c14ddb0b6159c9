import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { StoredOAuthLogin } from '../../gateway/core/index.js';
import { secretStoreAdapters, useSecretPlace, type SecretStoreAdapter } from './secretStoreAdapters.js';

function login(token: string): StoredOAuthLogin {
  return {
    signature: 'sig-1',
    redirectUri: 'http://127.0.0.1:7410/api/mcp/oauth/callback',
    resource: 'http://127.0.0.1:9/mcp',
    clientInformation: { client_id: 'client-1', client_secret: 'cs-secret' },
    tokens: { access_token: token, refresh_token: `r-${token}`, token_type: 'Bearer' },
    discovery: { authorizationServerUrl: 'http://127.0.0.1:9' },
    expiresAt: 1_800_000_000_000,
  };
}

/** What every OAuthLoginStore must do. */
function oauthLoginStoreContract(adapter: SecretStoreAdapter) {
  const place = useSecretPlace(adapter);

  it('holds no login until one is saved', async () => {
    expect(await (await (await place()).open()).oauthLogins.load()).toEqual({});
  });

  it('a restart reads back every saved login; a new login for a server replaces the old', async () => {
    const where = await place();
    const { oauthLogins } = await where.open();
    await oauthLogins.save('custom-aaaaaaaaaaaa', login('t1'));
    await oauthLogins.save('custom-bbbbbbbbbbbb', login('t2'));
    await oauthLogins.save('custom-aaaaaaaaaaaa', login('t3'));
    expect(await (await where.open()).oauthLogins.load()).toEqual({ 'custom-aaaaaaaaaaaa': login('t3'), 'custom-bbbbbbbbbbbb': login('t2') });
  });

  it('saving undefined deletes one login and leaves the others', async () => {
    const where = await place();
    const { oauthLogins } = await where.open();
    await oauthLogins.save('custom-aaaaaaaaaaaa', login('t1'));
    await oauthLogins.save('custom-bbbbbbbbbbbb', login('t2'));
    await oauthLogins.save('custom-aaaaaaaaaaaa', undefined);
    await oauthLogins.save('custom-cccccccccccc', undefined);
    expect(await (await where.open()).oauthLogins.load()).toEqual({ 'custom-bbbbbbbbbbbb': login('t2') });
  });

  it('a loaded set is a copy', async () => {
    const { oauthLogins } = await (await place()).open();
    await oauthLogins.save('custom-aaaaaaaaaaaa', login('t1'));
    delete (await oauthLogins.load())['custom-aaaaaaaaaaaa'];
    expect(Object.keys(await oauthLogins.load())).toEqual(['custom-aaaaaaaaaaaa']);
  });

  it('another key cannot read the saved logins: a clear error, never an empty set', async () => {
    const where = await place();
    await (await where.open()).oauthLogins.save('custom-aaaaaaaaaaaa', login('t1'));
    await expect(where.open(randomBytes(32)).then((s) => s.oauthLogins.load())).rejects.toThrow(/key/);
  });
}

/** Several replicas on one store: a login saved by one is read by the others. */
function sharedOAuthLoginStoreContract(adapter: SecretStoreAdapter) {
  const place = useSecretPlace(adapter);

  it('a login one replica saves or clears is what another replica loads next', async () => {
    const where = await place();
    const [one, two] = [(await where.open()).oauthLogins, (await where.open()).oauthLogins];
    expect(await two.load()).toEqual({});
    await one.save('custom-aaaaaaaaaaaa', login('t1'));
    expect(await two.load()).toEqual({ 'custom-aaaaaaaaaaaa': login('t1') });
    await one.save('custom-aaaaaaaaaaaa', undefined);
    expect(await two.load()).toEqual({});
  });
}

describe.each(secretStoreAdapters)('OAuthLoginStore contract: $name', oauthLoginStoreContract);
describe.each(secretStoreAdapters.filter((a) => a.shared))('OAuthLoginStore shared by replicas: $name', sharedOAuthLoginStoreContract);
