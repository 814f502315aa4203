import { createServer, connect, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TEST_DATABASE_URL, TestDatabase } from './support/test-database';

// The service reaches PostgreSQL through a proxy this spec can cut, as a network outage would.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

onPostgres('database outage', () => {
  const upstream = new URL(TEST_DATABASE_URL);
  const sockets = new Set<Socket>();
  let proxy: Server;
  let port: number;
  let database: TestDatabase;
  let service: TestApp;

  const openProxy = (at = 0) =>
    new Promise<number>((resolve) => {
      proxy = createServer((client) => {
        const server = connect(Number(upstream.port || 5432), upstream.hostname);
        for (const socket of [client, server]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(server).pipe(client);
      });
      proxy.listen(at, '127.0.0.1', () => resolve((proxy.address() as AddressInfo).port));
    });
  const cutProxy = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      proxy.close(() => resolve());
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await openProxy();
    const url = new URL(TEST_DATABASE_URL);
    url.port = String(port);
    service = await startTestApp({ DATABASE_URL: url.toString() }, { database });
  });
  afterAll(async () => {
    await service.close();
    if (proxy.listening) await cutProxy();
    await database.drop();
  });

  it('answers 503 with Retry-After quickly while the database is away, and recovers', async () => {
    await request(service.http).get('/products').expect(200);
    await cutProxy();
    const started = Date.now();
    const ready = await request(service.http).get('/readyz').expect(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual({ error: ['the database is unavailable'] });
    const products = await request(service.http).get('/products').expect(503);
    expect(products.headers['retry-after']).toBe('5');
    expect(products.body).toEqual({ error: ['the database is unavailable; try again later'] });
    expect(Date.now() - started).toBeLessThan(12_000);
    await openProxy(port);
    await request(service.http).get('/products').expect(200);
    await request(service.http).get('/readyz').expect(200);
  });
});
