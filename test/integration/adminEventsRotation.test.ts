import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { eventRoutes } from '../../admin/eventRoutes.js';
import { EventHub, systemClock } from '../../gateway/index.js';
import { loadAdminToken } from '../../storage/index.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream } from '../fixtures/eventStream.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.dispose();
});

/** `pending`, or a rejection naming `what` after `ms` (bounded waits, readable failures). */
function within<T>(pending: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

describe('GET /api/events across an admin token rotation', () => {
  it('a stream opened with the old token ends, saying why; one opened with the new token carries on', async () => {
    const old = gateway.token;
    await gateway.connect({ name: 'rotation-agent' });
    const session = await adminApi(gateway).sessionOf('rotation-agent');
    const stale = await fetch(`${gateway.url}/api/events`, { headers: { authorization: `Bearer ${old}`, accept: 'text/event-stream' } });
    expect(stale.status).toBe(200);
    const staleText = stale.text();

    // What `scigate token --rotate` does: a new token in the file the running gateway follows.
    const fresh = (await loadAdminToken(gateway.dataDir, { rotate: true })).token;
    const status = async (token: string) => (await fetch(`${gateway.url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status;
    // The gateway looks at its token file once a second: generous limits, no claim about speed.
    await expect.poll(() => status(fresh), { timeout: 30_000, interval: 100 }).toBe(200);
    expect(await status(old)).toBe(401);

    const ended = await within(staleText, 10_000, 'the stream opened with the old token did not end');
    expect(ended).toMatch(/\n: the admin token this stream was opened with was replaced; open \/api\/events again with the current one \(`scigate token` prints it\)\n\n$/);

    const live = await openEventStream({ url: gateway.url, token: fresh }, `?sessionId=${session.id}`);
    const api = adminApi({ url: gateway.url, token: fresh });
    expect((await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' })).status).toBe(200);
    expect((await live.next((e) => e.type === 'session.updated')).sessionId).toBe(session.id);
    live.close();
  });
});

describe('GET /api/events without change notices', () => {
  it('still delivers no event once its token is replaced: the stream ends at the next one instead', async () => {
    let token = 'a'.repeat(32);
    const events = new EventHub();
    const app = express().use(eventRoutes({ events, sessions: { get: async () => undefined }, clock: systemClock, token: () => token }));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const stream = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
      const text = stream.text();
      await expect.poll(() => events.subscriberCount).toBe(1);
      events.publish('before', null, {});
      token = 'b'.repeat(32);
      events.publish('after', null, {});
      const ended = await within(text, 10_000, 'the stream did not end');
      expect(ended).toContain('event: before');
      expect(ended).not.toContain('event: after');
      expect(ended).toMatch(/: the admin token this stream was opened with was replaced;[^\n]*\n\n$/);
      expect(events.subscriberCount).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
