import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../gateway/config/index.js';

describe('JSON flags', () => {
  it('refuse a value that is not JSON with an example of their own', () => {
    expect(() => parseCommandLine(['serve', '--extraction-limits', 'x'], {})).toThrow(`--extraction-limits must be JSON, e.g. '{"timeoutMs":60000}'.`);
    expect(() => parseCommandLine(['serve', '--download-mirrors', '{x'], {})).toThrow(`--download-mirrors must be JSON, e.g. '{"https://arxiv.org":"http://127.0.0.1:8123"}'.`);
    expect(() => parseCommandLine(['serve', '--source-limits', '{'], {})).toThrow(`--source-limits must be JSON, e.g. '{"arxiv":{"minTimeMs":0}}'.`);
  });
});
