import { setTimeout as sleep } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import type { MigrationInterface } from 'typeorm';
import ts from 'typescript';
import { loadConfig } from '../apps/api/src/config/app-config';
import { migrate } from '../apps/api/src/database/migrate';
import { onlineMigration } from '../apps/api/src/database/online-migration';
import { startService } from './support/service-process';
import { ADMIN_TOKEN, STATIC_ADMIN } from './support/shop-client';
import { createTestDatabase, TEST_DATABASE_URL, TestDatabase } from './support/test-database';

// SPEC 1.19 at scale: a million products served under a bounded load of reads and writes
// while a migration, as `npm run migration:generate` writes it, adds an attribute with an
// index and a foreign key. No request fails; the slowest write during the migration is
// printed, to compare with the migration's lock timeout. Directly on PostgreSQL (the pooler project leaves it out: one run is enough).
const runs = process.env.TEST_DATABASE === 'postgres' && !process.env.TEST_DATABASE_POOLER;
const PRODUCTS = 1_000_000;
const LOCK_TIMEOUT_MS = 2_000;
(runs ? describe : describe.skip)('a migration under live traffic, at a million products', () => {
  jest.setTimeout(10 * 60_000);
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', ...database.env }).database;
    await migrate(config);
    client = new Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`SET search_path = "${database.env.DATABASE_SCHEMA}"`);
    await client.query(
      `INSERT INTO products (id, created_at, updated_at, name, price_cents, currency, stock)
       SELECT gen_random_uuid()::text, now(), now(), 'Product ' || n, 100 + n % 900, 'EUR', 50
       FROM generate_series(1, $1) AS n`,
      [PRODUCTS],
    );
    await client.query('ANALYZE products');
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('adds an attribute with an index and a foreign key, failing no request', async () => {
    const service = startService({
      NODE_ENV: 'production',
      JWT_SECRET: 'Kd8sW2nQ5vR7xT1mZ4pL9cH3jF6yB0gA',
      STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
      LOG_LEVEL: 'info',
      ...database.env,
    });
    let origin = '';
    const failures: string[] = [];
    const writes: number[] = [];
    let reads = 0;
    let running = true;
    const caller = async (index: number) => {
      for (let i = 0; running; i += 1) {
        const write = i % 2 === 0;
        const started = performance.now();
        const response = await fetch(`${origin}/products${write ? '' : '?limit=5'}`, {
          method: write ? 'POST' : 'GET',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: write
            ? JSON.stringify({ data: { name: `Live ${index}-${i}`, price_cents: 100, stock: 1 } })
            : undefined,
        }).catch((error: Error) => error);
        const status = response instanceof Error ? response.message : response.status;
        if (status !== 200 && status !== 201) failures.push(String(status));
        if (write) writes.push(performance.now() - started);
        else reads += 1;
      }
    };
    try {
      origin = `http://127.0.0.1:${await service.listening()}`;
      const load = Array.from({ length: 4 }, (_, index) => caller(index));
      await sleep(1_000);
      const before = writes.length;
      const started = performance.now();
      const migrations = generatedMigrations();
      await migrate(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_MIGRATION_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS),
          ...database.env,
        }).database,
        { migrations },
      );
      const migrationMs = performance.now() - started;
      const during = writes.slice(before);
      await sleep(500);
      running = false;
      await Promise.all(load);

      const slowest = Math.max(...during);
      console.log(
        `online migration at ${PRODUCTS} products: ${Math.round(migrationMs)} ms; ` +
          `${during.length} writes during it, the slowest ${Math.round(slowest)} ms; ` +
          `${writes.length} writes and ${reads} reads in all, ${failures.length} failed`,
      );
      // The slowest write is a measurement (on a quiet machine well under the lock timeout),
      // not an assertion: on a loaded one every write may take seconds, migration or not.
      expect(failures).toEqual([]);
      expect(during.length).toBeGreaterThan(0);
      const index = await client.query<{ indisvalid: boolean }>(
        `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relname = 'products_sku_id' AND n.nspname = $1`,
        [database.env.DATABASE_SCHEMA],
      );
      expect(index.rows).toEqual([{ indisvalid: true }]);
      const constraint = await client.query<{ convalidated: boolean }>(
        `SELECT convalidated FROM pg_constraint WHERE conname = 'FK_products_sku'
         AND connamespace = $1::regnamespace`,
        [database.env.DATABASE_SCHEMA],
      );
      expect(constraint.rows).toEqual([{ convalidated: true }]);
    } finally {
      running = false;
      service.child.kill('SIGKILL');
    }
  });
});

// What `npm run migration:generate -- AddProductSkus` writes for a `skus` resource and a
// `sku_id` on products with an index and a foreign key, before its online rewrite.
const GENERATED = `import { MigrationInterface, QueryRunner } from "typeorm";

export class AddProductSkus1899999999000 implements MigrationInterface {
    name = 'AddProductSkus1899999999000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(\`
            CREATE TABLE "skus" ("id" character varying(36) NOT NULL, CONSTRAINT "PK_skus" PRIMARY KEY ("id"))
        \`);
        await queryRunner.query(\`
            ALTER TABLE "products"
            ADD "sku_id" character varying(36)
        \`);
        await queryRunner.query(\`
            CREATE INDEX "products_sku_id" ON "products" ("sku_id")
        \`);
        await queryRunner.query(\`
            ALTER TABLE "products"
            ADD CONSTRAINT "FK_products_sku" FOREIGN KEY ("sku_id") REFERENCES "skus"("id") ON DELETE SET NULL ON UPDATE NO ACTION
        \`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(\`
            ALTER TABLE "products" DROP CONSTRAINT "FK_products_sku"
        \`);
        await queryRunner.query(\`
            DROP INDEX "products_sku_id"
        \`);
        await queryRunner.query(\`
            ALTER TABLE "products" DROP COLUMN "sku_id"
        \`);
        await queryRunner.query(\`
            DROP TABLE "skus"
        \`);
    }

}
`;

/** The generated migration, made online by the generator's own rewrite, as classes. */
function generatedMigrations(): (new () => MigrationInterface)[] {
  const { source, online: followUp } = onlineMigration(GENERATED, {
    name: 'AddProductSkus',
    timestamp: 1899999999001,
  });
  expect(followUp).toContain('transaction = false');
  return [source, followUp!].map(compiled);
}

// A migration's TypeScript, compiled as the build compiles it (its imports are types only).
function compiled(source: string): new () => MigrationInterface {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const module = { exports: {} as Record<string, new () => MigrationInterface> };
  runInNewContext(outputText, { module, exports: module.exports });
  return Object.values(module.exports)[0];
}
