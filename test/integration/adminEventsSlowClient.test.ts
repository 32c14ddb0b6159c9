import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { eventRoutes } from '../../admin/eventRoutes.js';
import { EventHub, systemClock } from '../../gateway/index.js';

describe('GET /api/events for a client that stops reading', () => {
  it('ends the stream once it falls far behind, instead of buffering every event for it', async () => {
    const events = new EventHub();
    const app = express().use(eventRoutes({ events, sessions: { get: async () => undefined }, clock: systemClock, token: () => 't'.repeat(32) }));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write('GET /events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      // Reads the head, then nothing more: its receive buffer fills and the server's writes back up.
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.pause();
      await expect.poll(() => events.subscriberCount).toBe(1);
      const large = 'x'.repeat(64 * 1024);
      // 32 MiB: more than the kernel buffers of both ends hold on loopback.
      for (let i = 0; i < 512 && events.subscriberCount > 0; i++) {
        events.publish('download.progress', null, { large });
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(events.subscriberCount).toBe(0);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
