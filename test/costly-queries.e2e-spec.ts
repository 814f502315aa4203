import request from 'supertest';
import { DataSource } from 'typeorm';
import { CostlyQueries } from '@app/resource-kit/persistence/costly-queries';
import { Product } from '../apps/api/src/modules/products/product.entity';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.6, costly queries are bounded: a list that no index serves runs under a per-instance
// bound (503 with Retry-After beyond it, never a queue), and an anonymous one under a shorter
// statement timeout (PostgreSQL).
const postgres = process.env.TEST_DATABASE === 'postgres';
const COSTLY = [
  '/products?filter[name][contains]=a',
  '/products?filter[name][contains]=%25',
  '/products?filter[stock][gte]=1',
  '/products?order=stock',
];
const INDEXED = [
  '/products?filter[name][contains]=teapot',
  '/products?filter[price_cents][gte]=1',
  '/products?order=-updated_at',
];

describe('costly queries', () => {
  let service: TestApp;
  const get = (path: string) => request(service.http).get(path);

  beforeAll(async () => {
    service = await startTestApp({
      COSTLY_QUERY_CONCURRENCY: '1',
      COSTLY_QUERY_ANONYMOUS_TIMEOUT_MS: '300',
      // Far apart, so that which one ended a wait shows even on a loaded machine.
      DATABASE_STATEMENT_TIMEOUT_MS: '15000',
      REQUEST_TIMEOUT_MS: '20000',
    });
    const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
    for (const name of ['Blue teapot', 'Green cup 50%']) {
      await admin.post('/products', { name, price_cents: 500, stock: 3 }).expect(201);
    }
  });
  afterAll(() => service.close());

  it('answers costly lists while the bound has room', async () => {
    const substring = await get(COSTLY[1]).expect(200);
    const names = (substring.body as { data: { name: string }[] }).data.map((p) => p.name);
    expect(names).toEqual(['Green cup 50%']);
    for (const path of COSTLY) await get(path).expect(200);
  });

  it('refuses a costly list at once while the bound is full, and serves what an index does', async () => {
    let release!: () => void;
    const held = service.app
      .get(CostlyQueries)
      .run(true, () => new Promise<void>((resolve) => (release = resolve)));
    try {
      for (const path of COSTLY) {
        const refused = await get(path).expect(503);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body.error[0]).toMatch(
          /^too many searches that no index serves are running/,
        );
      }
      for (const path of INDEXED) await get(path).expect(200);
    } finally {
      release();
      await held;
    }
    await get(COSTLY[0]).expect(200);
  });

  (postgres ? it : it.skip)(
    'gives an anonymous costly list a shorter statement timeout than a caller\u2019s',
    async () => {
      // A table lock makes the scan wait: the wait counts against the statement timeout.
      const dataSource = service.app.get(DataSource);
      const lock = dataSource.createQueryRunner();
      await lock.connect();
      await lock.startTransaction();
      try {
        const table = dataSource.getMetadata(Product).tablePath;
        await lock.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
        const started = Date.now();
        const anonymous = await get(COSTLY[2]).expect(503);
        expect(Date.now() - started).toBeLessThan(8_000);
        expect(anonymous.headers['retry-after']).toBeDefined();
        const admin = get(COSTLY[3]).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
        const answered = admin.then((answer) => answer.status);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await lock.commitTransaction();
        expect(await answered).toBe(200);
      } finally {
        if (lock.isTransactionActive) await lock.rollbackTransaction();
        await lock.release();
      }
    },
  );
});
