import { Client } from 'pg';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp } from './support/test-app';
import { TEST_DATABASE_URL } from './support/test-database';
import { scaledMs } from './support/machine-load';

// A row lock this spec holds in PostgreSQL makes a PATCH of that row wait.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

onPostgres('time limits', () => {
  jest.setTimeout(scaledMs(30_000));
  let locker: Client;

  beforeAll(async () => {
    locker = new Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(() => locker.end());

  // A product made by a service with the default limits (which also applies the migrations),
  // its row locked by this spec, and a second service on the same database with `limits`.
  async function serviceWithLockedProduct(limits: Record<string, string>) {
    const setup = await startTestApp();
    const created = await new ShopClient(setup.http)
      .as(ADMIN_TOKEN)
      .post('/products', { name: 'Kettle', price_cents: 100, stock: 1 })
      .expect(201);
    const id = (created.body as { data: { id: string } }).data.id;
    const service = await startTestApp(limits, { database: setup.database });
    const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
    const table = `"${setup.database.env.DATABASE_SCHEMA}".products`;
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    // Locks the services' connections hold or wait for on the table (the spec's own excepted).
    const serviceLocks = async () =>
      Number(
        (
          await locker.query<{ count: string }>(
            `SELECT count(*) FROM pg_locks WHERE relation = '${table}'::regclass AND pid <> pg_backend_pid()`,
          )
        ).rows[0].count,
      );
    const close = async () => {
      await service.close();
      await setup.close();
    };
    return { admin, id, serviceLocks, close };
  }

  afterEach(() => locker.query('ROLLBACK'));

  it('the statement timeout answers 503 quickly, changes nothing and frees the connection', async () => {
    const { admin, id, serviceLocks, close } = await serviceWithLockedProduct({
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
    });
    try {
      const started = Date.now();
      const response = await admin.patch(`/products/${id}`, { name: 'Renamed' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual({ error: ['the database is unavailable; try again later'] });
      // The lock is still held, yet the service no longer waits on it.
      expect(await serviceLocks()).toBe(0);
      await locker.query('ROLLBACK');
      expect((await admin.get(`/products/${id}`)).body.data.name).toBe('Kettle');
    } finally {
      await close();
    }
  });

  it('the request time limit answers 503 first; the statement timeout then frees the connection', async () => {
    const { admin, id, serviceLocks, close } = await serviceWithLockedProduct({
      REQUEST_TIMEOUT_MS: '500',
      DATABASE_STATEMENT_TIMEOUT_MS: '4000',
    });
    try {
      const started = Date.now();
      const response = await admin.patch(`/products/${id}`, { name: 'Renamed' });
      // Well before the statement timeout.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual({ error: ['the request took too long; try again later'] });
      expect(await serviceLocks()).toBeGreaterThan(0);
      // Then the statement timeout rolls the waiting transaction back.
      const deadline = Date.now() + 8_000;
      while ((await serviceLocks()) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await serviceLocks()).toBe(0);
      await locker.query('ROLLBACK');
      expect((await admin.get(`/products/${id}`)).body.data.name).toBe('Kettle');
    } finally {
      await close();
    }
  });
});
