import { describe, expect, it } from 'vitest';
import { UsageError, parseCommandLine } from '../../../gateway/config/index.js';
import { downloadMirrorsFlag } from '../../../gateway/commands/wiring.js';

describe('JSON flags', () => {
  it('refuse a value that is not JSON with an example of their own', () => {
    expect(() => parseCommandLine(['serve', '--extraction-limits', 'x'], {})).toThrow(`--extraction-limits must be JSON, e.g. '{"timeoutMs":60000}'.`);
    expect(() => parseCommandLine(['serve', '--download-mirrors', '{x'], {})).toThrow(`--download-mirrors must be JSON, e.g. '{"https://arxiv.org":"http://127.0.0.1:8123"}'.`);
    expect(() => parseCommandLine(['serve', '--source-limits', '{'], {})).toThrow(`--source-limits must be JSON, e.g. '{"arxiv":{"minTimeMs":0}}'.`);
  });

  it('--download-mirrors names itself and the entry that is not a URL or not loopback', () => {
    const mirrors = (json: string) => () => downloadMirrorsFlag({ downloadMirrors: json });
    expect(mirrors('{"https://arxiv.org":"http://127.0.0.1:8123"}')()).toEqual({ 'https://arxiv.org': 'http://127.0.0.1:8123' });
    expect(mirrors('{"arxiv.org":"http://127.0.0.1:8123"}')).toThrow(UsageError);
    expect(mirrors('{"arxiv.org":"http://127.0.0.1:8123"}')).toThrow(
      '--download-mirrors (SCIGATE_DOWNLOAD_MIRRORS): the mirrored origin "arxiv.org" is not a URL; write one such as "https://arxiv.org".',
    );
    expect(mirrors('{"https://arxiv.org":"127.0.0.1:8123"}')).toThrow(/--download-mirrors .*the mirror for https:\/\/arxiv.org, "127.0.0.1:8123", is not a URL/);
    expect(mirrors('{"https://arxiv.org":"http://example.org"}')).toThrow(/--download-mirrors .*must be a loopback URL/);
  });
});
