import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { migrate } from '../apps/api/src/database/migrate';
import { loadConfig } from '../apps/api/src/config/app-config';
import { scaledMs } from './support/machine-load';
import { startService, waitFor } from './support/service-process';
import { STATIC_ADMIN } from './support/shop-client';
import { createTestDatabase, TEST_DATABASE_URL, TestDatabase } from './support/test-database';

// SPEC 1.19: instances starting together run the pending migrations once, and a migration
// never queues live traffic behind it beyond its lock timeout. PostgreSQL only: SQLite has one
// process, and no lock to wait for.
const onPostgres = process.env.TEST_DATABASE === 'postgres';
const MIGRATIONS = readdirSync(
  join(__dirname, '..', 'apps', 'api', 'src', 'database', 'migrations', 'postgres'),
).filter((file) => /^\d+-.*\.ts$/.test(file));

(onPostgres ? describe : describe.skip)('migrations at start, on PostgreSQL', () => {
  // Two service processes migrating a new schema, behind PgBouncer too, on a busy machine.
  jest.setTimeout(scaledMs(120_000));
  let database: TestDatabase;
  let client: Client;
  const env = () => ({
    NODE_ENV: 'production',
    JWT_SECRET: 'Kd8sW2nQ5vR7xT1mZ4pL9cH3jF6yB0gA',
    STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
    ...database.env,
  });
  const applied = async () =>
    (
      await client.query<{ name: string }>(
        `SELECT name FROM "${database.env.DATABASE_SCHEMA}".migrations ORDER BY id`,
      )
    ).rows.map(({ name }) => name);

  beforeEach(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
    await database.drop();
  });

  it('runs them once when two instances start at once, and both serve', async () => {
    const instances = [startService(env()), startService(env())];
    try {
      const ports = await Promise.all(instances.map((instance) => instance.listening()));
      for (const port of ports) {
        const response = await fetch(`http://127.0.0.1:${port}/products`);
        expect(response.status).toBe(200);
      }
      const names = await applied();
      expect(names).toHaveLength(MIGRATIONS.length);
      expect(new Set(names).size).toBe(MIGRATIONS.length);
    } finally {
      for (const instance of instances) instance.child.kill('SIGKILL');
    }
  });

  it('waits while another instance migrates, and starts once it is done', async () => {
    // The test holds the lease an instance that migrates holds.
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `${database.env.DATABASE_SCHEMA}.migrations`,
    ]);
    const instance = startService({ ...env(), LOG_LEVEL: 'info' });
    try {
      await waitFor(instance.output, /waiting for another instance to migrate/);
      await sleep(500);
      expect(instance.output()).not.toMatch(/Listening on/);
      await client.query('COMMIT');
      const port = await instance.listening();
      expect((await fetch(`http://127.0.0.1:${port}/products`)).status).toBe(200);
      expect(await applied()).toHaveLength(MIGRATIONS.length);
    } finally {
      instance.child.kill('SIGKILL');
    }
  });

  it('gives up on a lock live traffic holds within the lock timeout, and runs again', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_MIGRATION_LOCK_TIMEOUT_MS: '200',
      ...database.env,
    }).database;
    await migrate(config);
    const schema = database.env.DATABASE_SCHEMA;
    // A long transaction that has read products: the migration's ALTER TABLE must wait for it.
    await client.query('BEGIN');
    await client.query(`SELECT count(*) FROM "${schema}".products`);
    const writer = new Client({ connectionString: TEST_DATABASE_URL });
    await writer.connect();
    // Writes to the same table: behind the migration's queued ALTER TABLE, until it gives up.
    const writes: number[] = [];
    let writing = true;
    const traffic = (async () => {
      while (writing) {
        const started = performance.now();
        await writer.query(`UPDATE "${schema}".products SET stock = stock WHERE id = 'none'`);
        writes.push(performance.now() - started);
        await sleep(20);
      }
    })();
    try {
      const migrating = migrate(config, { migrations: [AddProductSku1899999999999] });
      // Held for 3 s: the migration gives up at 0.2 s, runs again at 1.2 s, and at 3.4 s.
      await sleep(3_000);
      await client.query('COMMIT');
      await migrating;
      const columns = await client.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'products' AND column_name = 'sku'`,
        [schema],
      );
      expect(columns.rowCount).toBe(1);
      expect(AddProductSku1899999999999.attempts).toBeGreaterThan(1);
      // No write waited for the 3 s the lock was held: at most about the lock timeout.
      expect(writes.length).toBeGreaterThan(10);
      expect(Math.max(...writes)).toBeLessThan(1_500);
    } finally {
      writing = false;
      await traffic;
      await writer.end();
    }
  });
});

/** A spec's own migration: the kind of column a team adds to a live table. */
class AddProductSku1899999999999 implements MigrationInterface {
  static attempts = 0;
  name = 'AddProductSku1899999999999';

  async up(queryRunner: QueryRunner): Promise<void> {
    AddProductSku1899999999999.attempts += 1;
    await queryRunner.query('ALTER TABLE "products" ADD "sku" character varying(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "products" DROP COLUMN "sku"');
  }
}
