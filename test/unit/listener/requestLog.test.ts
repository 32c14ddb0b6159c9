import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { SecretScrubber, scrubbingLogger, type Logger } from '../../../gateway/core/index.js';
import { requestLog } from '../../../gateway/listener/requestLog.js';

const TOKEN = 'tok-0123456789abcdef';

/** The production logger shape: pino at `level`, wrapped by the scrubbing logger; `scrubbed` counts deep copies. */
function gatewayLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  const secrets = new (class extends SecretScrubber {
    scrubbed = 0;
    override scrubValue<T>(value: T): T {
      this.scrubbed += 1;
      return super.scrubValue(value);
    }
  })();
  secrets.register('admin-token', () => [TOKEN]);
  const log = scrubbingLogger(pino({ level }, sink) as unknown as Logger, secrets);
  return { log, lines, secrets };
}

async function serve(log: Logger): Promise<void> {
  const app = express();
  app.use(requestLog(log));
  app.post('/mcp', (_req, res) => void res.status(200).json({ ok: true }));
  app.post('/refused', (_req, res) => void res.status(401).json({ error: 'unauthorized' }));
  await request(app).post('/mcp').send({});
  await request(app).post('/refused').send({});
}

describe('per-request log lines', () => {
  it('at info, an answered request writes nothing (and is not even scrubbed); a refused one is logged', async () => {
    const { log, lines, secrets } = gatewayLogger('info');
    await serve(log);
    await expect.poll(() => lines.length, { timeout: 60_000 }).toBe(1);
    expect(lines[0]).toMatchObject({ msg: 'http request', path: '/refused', status: 401 });
    expect(secrets.scrubbed).toBe(1);
  });

  it('at debug, every request is logged', async () => {
    const { log, lines } = gatewayLogger('debug');
    await serve(log);
    await expect.poll(() => lines.map((l) => l.status), { timeout: 60_000 }).toEqual([200, 401]);
  });
});
