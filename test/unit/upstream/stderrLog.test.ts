import { describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../gateway/core/index.js';
import { stderrLog } from '../../../gateway/upstream/stderrLog.js';
import { captureLogger } from '../../fixtures/custom/captureLogger.js';

describe("a stdio server's stderr", () => {
  it('is summed up for its exit: whole when short, else its start and its end, scrubbed', () => {
    const secrets = new SecretScrubber();
    secrets.register('server', () => ['sk-live-4242-SECRET']);
    const short = stderrLog(captureLogger(), 1, secrets);
    short.write(Buffer.from('Error: bad key sk-live-4242-SECRET\n'));
    short.end();
    expect(short.summary()).toBe('Error: bad key [redacted]\n');

    const middle = stderrLog(captureLogger(), 1);
    const text = `${'a'.repeat(250)}${'b'.repeat(250)}`;
    middle.write(Buffer.from(text));
    expect(middle.summary()).toBe(text);

    const long = stderrLog(captureLogger(), 1);
    long.write(Buffer.from(`Error: Cannot find module 'x'\n${'    at frame\n'.repeat(200)}Node.js v20\n`));
    expect(long.summary()).toMatch(/^Error: Cannot find module 'x'\n[\s\S]* … [\s\S]*Node\.js v20\n$/);
    expect(long.summary().length).toBeLessThan(700);
  });
});
