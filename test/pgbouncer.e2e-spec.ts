import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { listenOnFreePort, startTestApp, TestApp } from './support/test-app';

// Only in the e2e:pgbouncer project, where TEST_DATABASE_URL is a PgBouncer in transaction mode.
const throughPooler = process.env.TEST_DATABASE_POOLER === 'transaction' ? describe : describe.skip;

throughPooler('through PgBouncer in transaction mode (DATABASE_POOLER=transaction)', () => {
  // First, with no other service in this process (passport's strategies are process-wide).
  it('is needed: with the settings of a direct connection the pooler refuses the start', async () => {
    await expect(startTestApp({ DATABASE_POOLER: 'none' })).rejects.toThrow(
      /unsupported startup parameter/,
    );
  });

  describe('with it', () => {
    let service: TestApp;
    let origin: string;

    beforeAll(async () => {
      service = await startTestApp();
      origin = await listenOnFreePort(service);
    });
    afterAll(() => service.close());

    it('answers reads of many shapes, many at a time, while writes go on', async () => {
      const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
      for (let i = 0; i < 12; i++) {
        await admin
          .post('/products', { name: `Mug ${i}`, price_cents: 100 * (i + 1), stock: i })
          .expect(201);
      }
      // Each shape would be one prepared statement per server connection on a direct connection.
      // All index-backed: costly ones are bounded per instance (test/costly-queries.e2e-spec.ts).
      const shapes = [
        '/products?limit=5',
        '/products?order=name',
        '/products?order=-price_cents&limit=3',
        '/products?filter[price_cents][gte]=500',
        '/products?filter[name][contains]=mug&order=-updated_at',
        '/products?filter[price_cents][lt]=300&order=price_cents',
      ];
      const reads = Array.from({ length: 120 }, (_, i) =>
        fetch(origin + shapes[i % shapes.length]),
      );
      const writes = Array.from({ length: 12 }, (_, i) =>
        fetch(`${origin}/products`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ data: { name: `Cup ${i}`, price_cents: 50, stock: 1 } }),
        }),
      );
      const answers = await Promise.all([...reads, ...writes]);
      expect(answers.map((answer) => answer.status)).toEqual([
        ...reads.map(() => 200),
        ...writes.map(() => 201),
      ]);
      const cups = await fetch(`${origin}/products?filter[name][contains]=cup&limit=100`);
      expect(((await cups.json()) as { data: unknown[] }).data).toHaveLength(12);
    });
  });
});
