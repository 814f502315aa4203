import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { declaredSearchIndexes } from '@app/resource-kit';
import { dataSourceOptions } from '../apps/api/src/database/data-source.options';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

const ENGINE = process.env.TEST_DATABASE ?? 'sqlite';
const MIGRATIONS = join(__dirname, '../apps/api/src/database/migrations', ENGINE);

// The indexes of the service's tables (in `schema` on PostgreSQL), each with its definition.
async function indexesOf(dataSource: DataSource, schema?: string): Promise<Map<string, string>> {
  type IndexRow = { name: string; definition: string | null };
  const rows =
    ENGINE === 'postgres'
      ? await dataSource.query<IndexRow[]>(
          'SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = $1',
          [schema],
        )
      : await dataSource.query<IndexRow[]>(
          "SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index'",
        );
  return new Map(rows.map((row) => [row.name, row.definition ?? '']));
}

// The service never synchronizes: the committed migrations of each engine must describe
// exactly what the entities declare.
describe('migrations', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp();
  });
  afterAll(() => service.close());

  it('leave nothing for the entities to change', async () => {
    const pending = await service.app.get(DataSource).driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  // TypeORM cannot declare an expression index, so it cannot see one missing: checked here.
  it('create the trigram index of every searchable attribute on the expression contains compares', async () => {
    const dataSource = service.app.get(DataSource);
    const declared = declaredSearchIndexes(dataSource);
    expect(declared.map((index) => index.name)).toEqual(
      expect.arrayContaining(['products_name_search', 'products_description_search']),
    );
    if (ENGINE !== 'postgres') return; // SQLite scans (the kit README)
    const indexes = await indexesOf(dataSource, service.database.env.DATABASE_SCHEMA);
    for (const { name, column } of declared) {
      expect([name, indexes.get(name)]).toEqual([
        name,
        // varchar columns read `(name)::text`, text ones `description`.
        expect.stringMatching(
          new RegExp(
            `USING gin \\(lower\\(\\(+${column}(\\)::text)? COLLATE "und-x-icu"\\)+ (public\\.)?gin_trgm_ops\\)`,
          ),
        ),
      ]);
    }
    // The planner matches it to the condition the kit writes for contains.
    const plan = await dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      await manager.query(`SET LOCAL search_path = "${service.database.env.DATABASE_SCHEMA}"`);
      return manager.query<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN SELECT id FROM products WHERE LOWER("name" COLLATE "und-x-icu") LIKE '%pfel%'`,
      );
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain(
      'Bitmap Index Scan on products_name_search',
    );
  });

  it('bring a database of the release before up to date, keeping its rows', async () => {
    const database = await createTestDatabase();
    // The release before the collection indexes: the migrations older than theirs.
    const files = readdirSync(MIGRATIONS).sort();
    const indexesAt = files.findIndex((file) => file.includes('AddCollectionIndexes'));
    const before = files.slice(0, indexesAt).map((file) => join(MIGRATIONS, file));
    const previous = new DataSource({
      ...dataSourceOptions(database.config),
      migrations: before,
      entities: [],
    });
    await previous.initialize();
    try {
      await previous.runMigrations();
      await previous.query(
        ENGINE === 'postgres'
          ? `INSERT INTO "${database.env.DATABASE_SCHEMA}".products (id, name, price_cents, stock, currency, created_at, updated_at) VALUES ('0190a1b2-0000-7000-8000-000000000001', 'Äpfel-Saft', 250, 3, 'EUR', now(), now())`
          : `INSERT INTO products (id, name, price_cents, stock, currency, created_at, updated_at) VALUES ('0190a1b2-0000-7000-8000-000000000001', 'Äpfel-Saft', 250, 3, 'EUR', datetime('now'), datetime('now'))`,
      );
      const indexes = await indexesOf(previous, database.env.DATABASE_SCHEMA);
      expect(indexes.has('products_updated_at_id')).toBe(false);
    } finally {
      await previous.destroy();
    }
    const upgraded = await startTestApp({}, { database });
    try {
      const indexes = await indexesOf(upgraded.app.get(DataSource), database.env.DATABASE_SCHEMA);
      for (const name of [
        'products_updated_at_id',
        'products_price_cents_id',
        'orders_status_created_at_id',
      ]) {
        expect([name, indexes.has(name)]).toEqual([name, true]);
      }
      if (ENGINE === 'postgres') expect(indexes.has('products_name_search')).toBe(true);
      const { body } = await request(upgraded.http)
        .get('/products?filter[name][contains]=%C3%A4pfel')
        .expect(200);
      const products = (body as { data: { name: string }[] }).data;
      expect(products.map((product) => product.name)).toEqual(['Äpfel-Saft']);
    } finally {
      await upgraded.app.close();
      await database.drop();
    }
  });
});
