import { describe, expect, it } from 'vitest';
import { createCustomServerSchema } from '../../../catalog/index.js';
import { buildServerConfig } from '../../../gateway/custom/customServerEdits.js';
import { secretValuesOf, urlSecretsOf } from '../../../gateway/custom/customTarget.js';

describe('the secrets a custom server config carries', () => {
  it('URL userinfo and key-like query values, decoded and as written, but no ordinary parameter', () => {
    const found = urlSecretsOf('https://alice:p%40ss-word@example.org/mcp?api_key=k1-abcdef&access_token=t2-ghijkl&X-Amz-Signature=s3&page=2&format=json');
    expect(found).toEqual(expect.arrayContaining(['alice', 'p%40ss-word', 'p@ss-word', 'k1-abcdef', 't2-ghijkl', 's3']));
    expect(found).not.toContain('2');
    expect(found).not.toContain('json');
    expect(urlSecretsOf('not a url')).toEqual([]);
  });

  it('header values, the credential after their auth scheme, and resolved $NAME references (not the reference)', () => {
    const config = buildServerConfig(
      createCustomServerSchema.parse({
        name: 'h', transport: 'http', url: 'https://example.org/mcp?token=qv-123456',
        headers: [{ key: 'Authorization', value: 'Bearer abc-123456' }, { key: 'X-Key', value: '$API_KEY' }],
      }),
      'custom-0123456789ab',
      '2024-01-01T00:00:00.000Z',
    );
    const found = secretValuesOf(config, { API_KEY: 'resolved-987654' });
    expect(found).toEqual(expect.arrayContaining(['Bearer abc-123456', 'abc-123456', 'resolved-987654', 'qv-123456']));
    expect(found).not.toContain('$API_KEY');
  });
});
