import { Client } from 'pg';
import { BENCH } from './bench.config';

/** The rows the load script addresses: products to read and buy, customers with sessions. */
export interface Fixtures {
  productIds: string[];
  customers: { userId: string; token: string; productIds: string[] }[];
}

const SEED_ID_PREFIX = '00000000-0000-7000-8000-';
const PRODUCTS_READ = 1_000;
const PRODUCTS_PER_CUSTOMER = 400;

export async function connect(): Promise<Client> {
  const sql = new Client({ connectionString: BENCH.databaseUrl, options: '-c timezone=UTC' });
  await sql.connect();
  return sql;
}

export async function createSchema(sql: Client): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS "${BENCH.schema}"`);
}

/**
 * The same 100,000 products on every run, generated in SQL: ids in the UUID layout, one
 * second apart, prices 0 to 99,999 cents, nine in ten in EUR, every tenth without a
 * description. Loaded only when they are not all there already.
 */
export async function seedProducts(sql: Client): Promise<boolean> {
  return seedProductRows(sql, BENCH.schema, BENCH.products);
}

/** `count` products of that layout in `schema`, unless they are all there already. */
/** The id of the i-th seeded product (from 1). */
export function seededProductId(i: number): string {
  return `${SEED_ID_PREFIX}${i.toString(16).padStart(12, '0')}`;
}

/** The id of the seeded revision of the i-th seeded product. */
export function seededRevisionId(i: number): string {
  return `${SEED_REVISION_PREFIX}${i.toString(16).padStart(12, '0')}`;
}
const SEED_REVISION_PREFIX = '00000000-0000-7000-9000-';

/** One revision per seeded product, as a create writes it (for filters through revisions). */
export async function seedRevisionRows(sql: Client, schema: string): Promise<boolean> {
  const s = `"${schema}"`;
  const count = async (table: string, prefix: string) =>
    Number(
      (
        await sql.query<{ count: string }>(
          `SELECT count(*) FROM ${s}.${table} WHERE id LIKE '${prefix}%'`,
        )
      ).rows[0].count,
    );
  const products = await count('products', SEED_ID_PREFIX);
  if ((await count('product_revisions', SEED_REVISION_PREFIX)) === products) return false;
  await sql.query(`DELETE FROM ${s}.product_revisions WHERE id LIKE '${SEED_REVISION_PREFIX}%'`);
  await sql.query(`
    INSERT INTO ${s}.product_revisions
      (id, created_at, updated_at, product_id, revision, name, description, price_cents, currency, stock)
    SELECT '${SEED_REVISION_PREFIX}' || substr(p.id, 25), p.created_at, p.updated_at, p.id, 1,
           p.name, p.description, p.price_cents, p.currency, p.stock
    FROM ${s}.products p WHERE p.id LIKE '${SEED_ID_PREFIX}%'`);
  await sql.query(`ANALYZE ${s}.product_revisions`);
  return true;
}

export async function seedProductRows(
  sql: Client,
  schema: string,
  count: number,
): Promise<boolean> {
  const table = `"${schema}".products`;
  const { rows } = await sql.query<{ count: string }>(
    `SELECT count(*) FROM ${table} WHERE id LIKE '${SEED_ID_PREFIX}%'`,
  );
  if (Number(rows[0].count) === count) return false;
  await sql.query(`TRUNCATE ${table} CASCADE`);
  await sql.query(`
    INSERT INTO ${table} (id, created_at, updated_at, name, description, price_cents, currency, stock)
    SELECT '${SEED_ID_PREFIX}' || lpad(to_hex(i), 12, '0'), t, t,
           'Product ' || i,
           CASE WHEN i % 10 = 0 THEN NULL
                ELSE 'A sturdy, well-made article of the bench catalogue, number ' || i || '.' END,
           (i::bigint * 7919) % 100000,
           CASE WHEN i % 10 = 5 THEN 'USD' ELSE 'EUR' END,
           1000000
    FROM generate_series(1, ${count}) AS i,
         LATERAL (SELECT timestamp '2026-01-01' + i * interval '1 second' AS t) AS times`);
  await sql.query(`ANALYZE ${table}`);
  return true;
}

/**
 * Back to the seeded state: no carts' items, orders, events, products or webhook endpoints
 * of earlier runs, and no dead rows of them.
 */
export async function resetWrites(sql: Client, schema: string = BENCH.schema): Promise<void> {
  const s = `"${schema}"`;
  // Checkouts took stock: give it back before the orders go.
  await sql.query(`
    UPDATE ${s}.products p SET stock = 1000000
    WHERE p.id IN (SELECT DISTINCT product_id FROM ${s}.order_items)`);
  await sql.query(
    `TRUNCATE ${s}.cart_items, ${s}.order_items, ${s}.orders, ${s}.events, ${s}.product_revisions, ${s}.sessions, ${s}.webhook_deliveries, ${s}.webhook_outbox, ${s}.webhook_endpoints`,
  );
  await sql.query(`DELETE FROM ${s}.products WHERE id NOT LIKE '${SEED_ID_PREFIX}%'`);
  await sql.query(`UPDATE ${s}.carts SET subtotal_cents = 0, item_count = 0`);
  // What autovacuum would have done by now, which a database run with it off (a test
  // machine's) never does: without it each run reads past the rows the runs before deleted
  // or updated, in the tables and their indexes, and plans without statistics.
  await sql.query(`VACUUM ANALYZE ${s}.products, ${s}.carts`);
}

/** Empties every cart: a load run ends with items it created and had not yet deleted. */
export async function emptyCarts(): Promise<void> {
  const sql = await connect();
  try {
    const s = `"${BENCH.schema}"`;
    await sql.query(`TRUNCATE ${s}.cart_items`);
    await sql.query(`UPDATE ${s}.carts SET subtotal_cents = 0, item_count = 0`);
  } finally {
    await sql.end();
  }
}

/** Signs the customers up (first run only) and logs each in, through the service's API. */
export async function prepareCustomers(sql: Client, serviceUrl: string): Promise<Fixtures> {
  const s = `"${BENCH.schema}"`;
  const { rows: readable } = await sql.query<{ id: string }>(
    `SELECT id FROM ${s}.products WHERE id LIKE '${SEED_ID_PREFIX}%' ORDER BY id
     LIMIT ${PRODUCTS_READ}`,
  );
  const { rows: buyable } = await sql.query<{ id: string }>(
    `SELECT id FROM ${s}.products WHERE id LIKE '${SEED_ID_PREFIX}%' AND currency = 'EUR'
     ORDER BY id DESC LIMIT ${BENCH.customers * PRODUCTS_PER_CUSTOMER}`,
  );
  const customers: Fixtures['customers'] = [];
  for (let n = 0; n < BENCH.customers; n += 1) {
    const credentials = {
      email: `bench-customer-${n}@example.com`,
      password: `bench password ${n}`,
    };
    const { rows } = await sql.query(`SELECT 1 FROM ${s}.users WHERE email_key = $1`, [
      credentials.email,
    ]);
    if (rows.length === 0) {
      await post(serviceUrl, '/users', { ...credentials, name: `Customer ${n}` });
    }
    const session = await post(serviceUrl, '/sessions', credentials);
    customers.push({
      userId: session.user_id as string,
      token: session.token as string,
      // Each customer adds its own products in turn: an item is gone long before its customer
      // comes round to that product again, so no add is a duplicate (409).
      productIds: buyable
        .slice(n * PRODUCTS_PER_CUSTOMER, (n + 1) * PRODUCTS_PER_CUSTOMER)
        .map((row) => row.id),
    });
  }
  return { productIds: readable.map((row) => row.id), customers };
}

async function post(base: string, path: string, data: object): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown> };
  if (response.status !== 201 || !body.data) {
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.data;
}
