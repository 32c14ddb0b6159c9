import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresServer } from './fixtures/postgres.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** Where a test file asks for the run's shared PostgreSQL server (test/fixtures/sharedPostgres.ts). */
    postgresOnDemand: string;
  }
}

/**
 * One PostgreSQL server for the whole run, started on the first file that asks (a run without
 * one starts none) and stopped after the last: each initdb costs about a second of CPU, and most
 * files need only a database of their own, not a server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: Promise<PostgresServer> | undefined;
  const onDemand = createServer((req, res) => {
    server ??= startPostgres();
    server.then(
      ({ port, user, password }) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port, user, password })),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((resolve) => onDemand.listen(0, '127.0.0.1', resolve));
  project.provide('postgresOnDemand', `http://127.0.0.1:${(onDemand.address() as AddressInfo).port}/`);
  return async () => {
    onDemand.close();
    await (await server?.catch(() => undefined))?.stop();
  };
}
