import { randomUUID } from 'node:crypto';
import { Agent, get, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';
import {
  createTestDatabase,
  TEST_DATABASE_URL,
  TestDatabase,
  withClient,
} from './support/test-database';

// The service reaches PostgreSQL through a proxy this spec can cut, as a network outage would.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

onPostgres('database outage', () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let service: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(TEST_DATABASE_URL);
    proxy = await TcpProxy.open(url.hostname, Number(url.port || 5432));
    url.port = String(proxy.port);
    service = await startTestApp({ DATABASE_URL: url.toString() }, { database });
  });
  afterAll(async () => {
    await service.close();
    await proxy.cut();
    await database.drop();
  });

  it('answers 503 with Retry-After quickly while the database is away, and recovers', async () => {
    await request(service.http).get('/products').expect(200);
    await proxy.cut();
    const started = Date.now();
    const ready = await request(service.http).get('/readyz').expect(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual({ error: ['the database is unavailable'] });
    const products = await request(service.http).get('/products').expect(503);
    expect(products.headers['retry-after']).toBe('5');
    expect(products.body).toEqual({ error: ['the database is unavailable; try again later'] });
    expect(Date.now() - started).toBeLessThan(12_000);
    await proxy.reopen();
    await request(service.http).get('/products').expect(200);
    await request(service.http).get('/readyz').expect(200);
  });

  // The per-request session check is a database query too: an outage is 503, not a logout.
  it('answers authenticated callers 503 (never 401) under load during an outage, and their tokens work after', async () => {
    const shop = new ShopClient(service.http);
    const { token, user } = await shop.customer(`outage-${randomUUID().slice(0, 8)}@example.com`);
    const base = await listen(service.http as HttpServer);
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const callers = [
      { token, path: `/carts/${user.id}` },
      { token: ADMIN_TOKEN, path: '/orders' },
    ];
    const answers: (Answer & { started: number })[] = [];
    let running = true;
    const client = async (index: number) => {
      const caller = callers[index % callers.length];
      while (running) {
        const started = Date.now();
        answers.push({ started, ...(await getJson(`${base}${caller.path}`, caller.token, agent)) });
        await sleep(20);
      }
    };
    const clients = Array.from({ length: 20 }, (_, index) => client(index));
    try {
      await sleep(500);
      await proxy.cut();
      const cutAt = Date.now();
      await sleep(3_000);
      const outage = answers.filter((answer) => answer.started >= cutAt);
      expect(outage.length).toBeGreaterThan(20);
      const statuses = new Set(outage.map((a) => `${a.status} ${a.retryAfter} ${a.body}`));
      expect([...statuses]).toEqual([
        '503 5 {"error":["the database is unavailable; try again later"]}',
      ]);
    } finally {
      await proxy.reopen();
      running = false;
      await Promise.all(clients);
    }
    for (const caller of callers) {
      await expect(waitForOk(`${base}${caller.path}`, caller.token, agent)).resolves.toBe(200);
    }
    agent.destroy();
  }, 30_000);

  // Whatever makes the session check fail, the token is neither refused (401) nor ignored.
  it('answers a public operation called with a token whose session cannot be checked 5xx, not as anonymous', async () => {
    const shop = new ShopClient(service.http);
    const { token } = await shop.customer(`public-${randomUUID().slice(0, 8)}@example.com`);
    const { schema } = database.config as { schema: string };
    const rename = (from: string, to: string) =>
      withClient((client) => client.query(`ALTER TABLE "${schema}".${from} RENAME TO ${to}`));
    await rename('sessions', 'sessions_away');
    try {
      await shop.as(token).get('/products').expect(500);
      await shop.as(token).get('/orders').expect(500);
      await request(service.http).get('/products').expect(200);
    } finally {
      await rename('sessions_away', 'sessions');
    }
    await shop.as(token).get('/products').expect(200);
  }, 15_000);
});

interface Answer {
  status: number;
  retryAfter?: string;
  body: string;
}

function listen(server: HttpServer): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function getJson(url: string, token: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          retryAfter: response.headers['retry-after'],
          body,
        }),
      );
    }).on('error', reject);
  });
}

// The pool reconnects on demand; the first requests after the outage may still fail.
async function waitForOk(url: string, token: string, agent: Agent): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const { status } = await getJson(url, token, agent);
    if (status !== 503 || attempt >= 50) return status;
    await sleep(100);
  }
}
