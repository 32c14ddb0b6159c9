import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { deferredLogger, type Logger } from '../../../gateway/core/index.js';

/** A logger that records its lines as [level, bindings, obj, msg]. */
function recordingLogger(lines: unknown[][], bindings: Record<string, unknown> = {}): Logger {
  const at = (level: string) => (obj: object, msg?: string) => void lines.push([level, bindings, obj, msg]);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (more) => recordingLogger(lines, { ...bindings, ...more }) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('deferredLogger', () => {
  it('keeps lines written before the logger exists and replays them in order, children with their bindings', async () => {
    const ready = deferred<Logger>();
    const fallback = new PassThrough();
    const log = deferredLogger(ready.promise, fallback);
    log.warn({ code: 1 }, 'early');
    log.child({ sessionId: 's' }).info({}, 'child early');
    const lines: unknown[][] = [];
    ready.resolve(recordingLogger(lines));
    await ready.promise;
    await Promise.resolve();
    log.error({ code: 2 }, 'late');
    expect(lines).toEqual([
      ['warn', {}, { code: 1 }, 'early'],
      ['info', { sessionId: 's' }, {}, 'child early'],
      ['error', {}, { code: 2 }, 'late'],
    ]);
    expect(fallback.read()).toBeNull();
  });

  it('writes JSON lines to the fallback stream when the logger never comes', async () => {
    const ready = deferred<Logger>();
    const fallback = new PassThrough();
    const log = deferredLogger(ready.promise, fallback);
    log.warn({ code: -32700 }, 'Parse error');
    ready.reject(new Error('no pino'));
    await ready.promise.catch(() => {});
    log.error({}, 'after');
    const written = String(fallback.read()).trim().split('\n').map((line) => JSON.parse(line));
    expect(written).toEqual([
      { level: 'warn', code: -32700, msg: 'Parse error' },
      { level: 'error', msg: 'after' },
    ]);
  });
});
