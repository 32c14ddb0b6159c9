import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GatewayError, SecretScrubber, scrubbingLogger, type Logger } from '../../../gateway/core/index.js';
import { captureLogger } from '../../fixtures/custom/captureLogger.js';

const TOKEN = 'tok-6d1f0a9b3c';
const scrubber = (...secrets: string[]) => {
  const s = new SecretScrubber();
  s.register('server', () => secrets);
  return s;
};

describe('SecretScrubber', () => {
  it('replaces every occurrence of every registered value, longest first', () => {
    const s = scrubber(TOKEN, `Bearer ${TOKEN}`);
    expect(s.scrub(`got Bearer ${TOKEN}, then ${TOKEN} again`)).toBe('got [redacted], then [redacted] again');
  });

  it('ignores values too short to be secrets and forgets a removed owner', () => {
    const s = scrubber('1', 'true', TOKEN);
    expect(s.scrub(`true 1 ${TOKEN}`)).toBe('true 1 [redacted]');
    s.forget('server');
    expect(s.scrub(TOKEN)).toBe(TOKEN);
  });

  it('reads its providers at each scrub, so a value resolved later is known', () => {
    const s = new SecretScrubber();
    let resolved: string[] = [];
    s.register('server', () => resolved);
    expect(s.scrub(TOKEN)).toBe(TOKEN);
    resolved = [TOKEN];
    expect(s.scrub(TOKEN)).toBe('[redacted]');
    // A value replaced by another (a rotated credential) is read again, not remembered.
    resolved = ['tok-rotated-5e2a'];
    expect(s.scrub(`${TOKEN} tok-rotated-5e2a`)).toBe(`${TOKEN} [redacted]`);
  });

  it('scrubs a secret cut off by a bounded message or the end of a stream', () => {
    const s = scrubber(TOKEN);
    expect(s.scrub(`failed with ${TOKEN.slice(0, 7)}…`)).toBe('failed with [redacted]…');
    expect(s.scrub(`failed with ${TOKEN.slice(0, 7)}`)).toBe('failed with [redacted]');
    // The longest cut-off prefix wins, even where the secret's first characters recur in it.
    const recurring = scrubber('abcabcab9');
    expect(recurring.scrub('x abcabcab')).toBe('x [redacted]');
    expect(recurring.scrub('x abcab')).toBe('x [redacted]');
    // Three characters are too few to call a secret.
    expect(recurring.scrub('x abc')).toBe('x abc');
  });

  it('scrubs a secret escaped more than once: JSON text an upstream returned, serialized again for the audit', () => {
    const quoted = 'abc"QUOTE\\SECRET-99';
    const s = scrubber(quoted);
    const result = { content: [{ type: 'text', text: JSON.stringify({ API_KEY: quoted }) }] };
    const serialized = JSON.stringify(result);
    expect(s.scrub(serialized)).toBe(JSON.stringify({ content: [{ type: 'text', text: JSON.stringify({ API_KEY: '[redacted]' }) }] }));
    expect(s.scrub(JSON.stringify({ blob: serialized }))).not.toContain('QUOTE');
  });

  it('scrubs a multi-line value (a PEM key) from an error message, which joins its lines; a form shorter than a secret is not used', () => {
    const pem = '-----BEGIN KEY-----\nMIIBVQIBADANBgkq\n-----END KEY-----';
    const s = scrubber(pem, '\n\n\n\n\nab');
    const error = new GatewayError('upstream_error', `the server said: bad key ${pem}`);
    expect(s.scrub(error.message)).toBe('the server said: bad key [redacted]');
    expect(s.scrub('ab stays')).toBe('ab stays');
  });

  it('an error message shows control and text-direction characters escaped, so an echoed name cannot reorder the line', () => {
    expect(new GatewayError('tool_unavailable', 'No tool named "evil\u202Egnp.exe" is available').message).toBe('No tool named "evil\\u202egnp.exe" is available');
  });

  it("scrubs a value as Node's errors quote it, control characters escaped (a NUL saved before values were checked)", () => {
    const withNul = 'sk-live-TOPSECRET-4242\u0000';
    let nodeMessage = '';
    try {
      spawnSync('true', [], { env: { API_KEY: withNul } });
    } catch (error) {
      nodeMessage = (error as Error).message;
    }
    expect(nodeMessage).toContain('TOPSECRET');
    expect(scrubber(withNul).scrub(nodeMessage)).not.toContain('TOPSECRET');
  });

  it('scrubs JSON-escaped forms inside serialized text and deep values, Errors included', () => {
    const quoted = 'key-"with"-quotes';
    const s = scrubber(quoted, TOKEN);
    expect(s.scrub(JSON.stringify({ message: `echo ${quoted}` }))).toBe('{"message":"echo [redacted]"}');
    const value = s.scrubValue({ list: [TOKEN], nested: { err: new Error(`bad ${TOKEN}`) }, n: 3 });
    expect(JSON.stringify(value)).not.toContain(TOKEN);
    expect(value).toMatchObject({ list: ['[redacted]'], nested: { err: { message: 'bad [redacted]' } }, n: 3 });
  });

  it('returns values untouched (same object) while no secret is registered', () => {
    const value = { a: 'b' };
    expect(new SecretScrubber().scrubValue(value)).toBe(value);
  });
});

describe('a scrubbing stream', () => {
  const run = (s: SecretScrubber, chunks: string[]) => {
    const stream = s.stream();
    const emitted = chunks.map((chunk) => stream.push(chunk));
    return { emitted, all: emitted.join('') + stream.end() };
  };

  it('scrubs a secret split across two chunks and emits nothing of its first half', () => {
    const { emitted, all } = run(scrubber(TOKEN), [`line ${TOKEN.slice(0, 5)}`, `${TOKEN.slice(5)} rest\n`]);
    expect(emitted[0]).toBe('line ');
    expect(all).toBe('line [redacted] rest\n');
  });

  it('handles a secret spread over many one-character chunks', () => {
    const { emitted, all } = run(scrubber(TOKEN), [...`a ${TOKEN} b`]);
    // Nothing of the secret is ever emitted: the joined output is exactly the scrubbed text.
    expect(emitted.join('')).toBe('a [redacted] b');
    expect(all).toBe('a [redacted] b');
  });

  it('holds back only what may start a secret, so ordinary lines are emitted at once', () => {
    const { emitted } = run(scrubber(TOKEN), ['ready\n', 'listening on 3000\n']);
    expect(emitted).toEqual(['ready\n', 'listening on 3000\n']);
  });

  it('scrubs the first half of a secret left at the end of the stream', () => {
    expect(run(scrubber(TOKEN), [`dying with ${TOKEN.slice(0, 6)}`]).all).toBe('dying with [redacted]');
  });
});

describe('scrubbingLogger', () => {
  it('scrubs fields, messages and child bindings before the sink sees them', () => {
    const sink = captureLogger();
    const log: Logger = scrubbingLogger(sink, scrubber(TOKEN));
    log.child({ header: TOKEN }).warn({ err: new Error(`refused ${TOKEN}`), nested: { value: TOKEN } }, `discovery failed: ${TOKEN}`);
    expect(sink.lines).toHaveLength(1);
    expect(sink.lines[0]).not.toContain(TOKEN);
    expect(sink.lines[0]).toContain('discovery failed: [redacted]');
  });
});
