import { once } from 'node:events';
import { join } from 'node:path';
import { startService, waitFor } from './support/service-process';
import { ADMIN_TOKEN, STATIC_ADMIN } from './support/shop-client';
import { createTestDatabase, TestDatabase } from './support/test-database';

// The stored answer of an Idempotency-Key commits with the write: a process killed right
// after the COMMIT, before it answers, leaves both, and the client's retry is replayed.
const onPostgres = process.env.TEST_DATABASE === 'postgres';
type Row = Record<string, unknown> & { id: string };
const PAUSE_AFTER_COMMIT = join(__dirname, 'support', 'pause-after-commit.mjs');

(onPostgres ? describe : describe.skip)('idempotency keys across service processes', () => {
  let database: TestDatabase;
  const env = () => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(32),
    STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
    ...database.env,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

  async function start(extra: Record<string, string> = {}) {
    const service = startService({ ...env(), LOG_LEVEL: 'info', ...extra });
    const { child: process, output } = service;
    const port = await service.listening();
    const call = async <T = Row>(method: string, path: string, data?: object, headers = {}) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: data && JSON.stringify({ data }),
      });
      const body = (await response.json()) as { data: T };
      return { status: response.status, headers: response.headers, body };
    };
    return { process, output, call };
  }

  it('replays the stored order to the retry after a restart, taking the stock once', async () => {
    const first = await start({
      NODE_OPTIONS: `--import ${PAUSE_AFTER_COMMIT}`,
      PAUSE_AFTER_COMMIT_OF: 'orders',
    });
    const product = await first.call(
      'POST',
      '/products',
      { name: 'Urn', price_cents: 1, stock: 5 },
      admin,
    );
    const me = await first.call('POST', '/users', {
      email: 'crash@example.com',
      name: 'C',
      password: 'long enough',
    });
    const session = await first.call('POST', '/sessions', {
      email: 'crash@example.com',
      password: 'long enough',
    });
    const customer = { Authorization: `Bearer ${session.body.data.token as string}` };
    const item = await first.call(
      'POST',
      '/cart_items',
      { cart_id: me.body.data.id, product_id: product.body.data.id, quantity: 2 },
      customer,
    );
    const checkout = { cart_item_ids: [item.body.data.id] };
    const retry = { ...customer, 'Idempotency-Key': 'checkout-after-crash' };

    // The client never hears back.
    const lost = first.call('POST', '/orders', checkout, retry).catch(String);
    try {
      await waitFor(first.output, /paused after COMMIT/);
    } finally {
      first.process.kill('SIGKILL');
    }
    await once(first.process, 'exit');
    expect(await lost).toContain('fetch failed');

    const second = await start();
    try {
      const replayed = await second.call('POST', '/orders', checkout, retry);
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      const orders = await second.call<Row[]>('GET', '/orders', undefined, customer);
      expect(orders.body.data.map((order) => order.id)).toEqual([replayed.body.data.id]);
      const stock = await second.call('GET', `/products/${product.body.data.id}`);
      expect(stock.body.data.stock).toBe(3);
    } finally {
      second.process.kill('SIGKILL');
    }
  }, 30_000);

  it('answers 409 on another instance while the first request holds the key', async () => {
    // The first request claims its key, then hangs: it is "still running".
    const first = await start({
      NODE_OPTIONS: `--import ${PAUSE_AFTER_COMMIT}`,
      PAUSE_AFTER_COMMIT_OF: 'idempotency_keys',
    });
    const second = await start();
    try {
      const product = { name: 'Held', price_cents: 1, stock: 1 };
      const held = { ...admin, 'Idempotency-Key': 'held-by-the-first' };
      void first.call('POST', '/products', product, held).catch(String);
      await waitFor(first.output, /paused after COMMIT/);
      const meanwhile = await second.call('POST', '/products', product, held);
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.body).toEqual({
        error: ['a request with this Idempotency-Key is still being processed; retry later'],
      });
      const named = await second.call<Row[]>('GET', '/products?filter[name]=Held');
      expect(named.body.data).toEqual([]);
    } finally {
      first.process.kill('SIGKILL');
      second.process.kill('SIGKILL');
    }
  }, 30_000);
});
