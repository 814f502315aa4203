import { Client } from 'pg';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp } from './support/test-app';
import { TEST_DATABASE_URL } from './support/test-database';

// A row lock this spec holds in PostgreSQL makes a PATCH of that row wait.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

onPostgres('time limits', () => {
  let locker: Client;

  beforeAll(async () => {
    locker = new Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(() => locker.end());

  // Starts the service with these limits and a product whose row this spec locks.
  async function serviceWithLockedProduct(env: Record<string, string>) {
    const service = await startTestApp(env);
    const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
    const created = await admin.post('/products', { name: 'Kettle', price_cents: 100, stock: 1 });
    const id = (created.body as { data: { id: string } }).data.id;
    const table = `"${service.database.env.DATABASE_SCHEMA}".products`;
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    // Locks the service's connections hold or wait for on the table (the spec's own excepted).
    const serviceLocks = async () =>
      Number(
        (
          await locker.query<{ count: string }>(
            `SELECT count(*) FROM pg_locks WHERE relation = '${table}'::regclass AND pid <> pg_backend_pid()`,
          )
        ).rows[0].count,
      );
    return { service, admin, id, serviceLocks };
  }

  afterEach(() => locker.query('ROLLBACK'));

  it('the statement timeout answers 503 quickly, changes nothing and frees the connection', async () => {
    const { service, admin, id, serviceLocks } = await serviceWithLockedProduct({
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
      await service.close();
    }
  });

  it('the request time limit answers 503 first; the statement timeout then frees the connection', async () => {
    const { service, admin, id, serviceLocks } = await serviceWithLockedProduct({
      REQUEST_TIMEOUT_MS: '300',
      DATABASE_STATEMENT_TIMEOUT_MS: '1500',
    });
    try {
      const started = Date.now();
      const response = await admin.patch(`/products/${id}`, { name: 'Renamed' });
      expect(Date.now() - started).toBeLessThan(1_200);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual({ error: ['the request took too long; try again later'] });
      expect(await serviceLocks()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await serviceLocks()).toBe(0);
      await locker.query('ROLLBACK');
      expect((await admin.get(`/products/${id}`)).body.data.name).toBe('Kettle');
    } finally {
      await service.close();
    }
  });
});
