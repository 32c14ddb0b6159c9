import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { abortIsolatingFetch } from '../../gateway/upstream/abortIsolatingFetch.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return;
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('abortIsolatingFetch (the SDK shares one signal across all requests of a connection)', () => {
  it('leaves no listener on the shared signal after requests complete', async () => {
    const shared = new AbortController();
    const isolated = abortIsolatingFetch();
    for (let i = 0; i < 50; i++) expect(await (await isolated(`${url}/x`, { signal: shared.signal })).text()).toBe('ok');
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('plain fetch would have kept listeners on the shared signal (why this exists)', async () => {
    const shared = new AbortController();
    for (let i = 0; i < 20; i++) await (await fetch(`${url}/x`, { signal: shared.signal })).text();
    expect(getEventListeners(shared.signal, 'abort').length).toBeGreaterThan(0);
  });

  it('still aborts an in-flight request when the shared signal aborts', async () => {
    const shared = new AbortController();
    const pending = abortIsolatingFetch()(`${url}/hang`, { signal: shared.signal });
    shared.abort(new Error('transport closed'));
    await expect(pending).rejects.toThrow();
  });
});
