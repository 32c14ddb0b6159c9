import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../gateway/core/index.js';
import { applySecretEdits } from '../../../gateway/custom/index.js';

const saved = { API_KEY: 'old-api-secret', REGION: 'eu' };

function failure(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a failure');
}

describe.each(['env', 'headers'] as const)('the %s secret-edit contract (seed §5.3)', (field) => {
  it('an unchanged key with value null keeps the saved value', () => {
    expect(applySecretEdits(field, saved, [{ key: 'API_KEY', value: null }, { key: 'REGION', value: null }])).toEqual(saved);
    expect(applySecretEdits(field, saved, [{ key: 'API_KEY', value: null, originalKey: 'API_KEY' }])).toEqual({ API_KEY: 'old-api-secret' });
  });

  it('a renamed key without a new value is refused with a message naming the key; nothing moves', () => {
    const error = failure(() => applySecretEdits(field, saved, [{ key: 'TOKEN', value: null, originalKey: 'API_KEY' }]));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(`${field}.TOKEN`);
    expect(error.message).toContain('API_KEY');
    expect(error.details).toEqual({ field: `${field}.TOKEN` });
    expect(failure(() => applySecretEdits(field, saved, [{ key: 'TOKEN', value: '', originalKey: 'API_KEY' }])).message).toContain(`${field}.TOKEN`);
  });

  it('a renamed key with a new non-empty value is saved under the new name only', () => {
    expect(applySecretEdits(field, saved, [{ key: 'TOKEN', value: 'new-secret', originalKey: 'API_KEY' }])).toEqual({ TOKEN: 'new-secret' });
  });

  it('restoring the original name keeps the old value only when the value was not edited', () => {
    expect(applySecretEdits(field, saved, [{ key: 'API_KEY', value: null, originalKey: 'API_KEY' }])).toEqual({ API_KEY: 'old-api-secret' });
    expect(applySecretEdits(field, saved, [{ key: 'API_KEY', value: 'edited', originalKey: 'API_KEY' }])).toEqual({ API_KEY: 'edited' });
  });

  it('swapping two saved names does not bypass re-entry', () => {
    const error = failure(() =>
      applySecretEdits(field, saved, [
        { key: 'REGION', value: null, originalKey: 'API_KEY' },
        { key: 'API_KEY', value: null, originalKey: 'REGION' },
      ]),
    );
    expect(error.message).toContain(`${field}.REGION`);
  });

  it('a key that never had a value cannot keep one (no implicit migration between names)', () => {
    expect(failure(() => applySecretEdits(field, saved, [{ key: 'OTHER', value: null }])).message).toMatch(new RegExp(`^${field}\\.OTHER: has no saved value`));
  });

  it('explicit clearing: an empty value clears it, and a key left out is removed', () => {
    expect(applySecretEdits(field, saved, [{ key: 'API_KEY', value: '' }, { key: 'REGION', value: null }])).toEqual({ API_KEY: '', REGION: 'eu' });
    expect(applySecretEdits(field, saved, [{ key: 'REGION', value: null }])).toEqual({ REGION: 'eu' });
    expect(applySecretEdits(field, saved, [])).toEqual({});
  });

  it('a key listed twice is refused', () => {
    expect(failure(() => applySecretEdits(field, saved, [{ key: 'A', value: 'x' }, { key: 'A', value: 'y' }])).message).toContain(`${field}.A`);
  });
});

describe('header names', () => {
  it('are unique case-insensitively', () => {
    const error = failure(() => applySecretEdits('headers', {}, [{ key: 'X-Key', value: 'a' }, { key: 'x-key', value: 'b' }]));
    expect(error.message).toContain('headers.x-key');
  });
});
