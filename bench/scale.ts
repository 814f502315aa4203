import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BENCH } from './bench.config';
import {
  connect,
  resetWrites,
  seededProductId,
  seededRevisionId,
  seedProductRows,
  seedRevisionRows,
} from './fixtures';
import {
  measureCostlyNeighbours,
  type NeighbourResults,
  renderNeighbours,
} from './costly-neighbours';
import { DATA_FILE } from './scenarios';
import { RunningServer } from './servers';
import { loadFor } from './wrk.runner';

/**
 * `npm run bench -- --scale`: SPEC 1.6 at scale. Page latency of what an anonymous client may
 * send, on 1,000,000 products (PostgreSQL) and 100,000 (SQLite), and write throughput (S3)
 * with the collection indexes against without them, in one run.
 */
const SCALE = {
  schema: `${BENCH.schema}_scale`,
  postgresRows: Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000),
  sqliteRows: 100_000,
  samples: 40,
  warmup: 5,
  port: 4107,
  // The indexes of the collections migration on products: dropped and made again for S3.
  writeIndexes: [
    'products_updated_at_id',
    'products_price_cents_id',
    'products_name_search',
    'products_description_search',
  ],
  writeRounds: 2,
  writeSeconds: 10,
};

const PAGES: readonly (readonly [string, string])[] = [
  // Common and rare in turn: a plan PostgreSQL keeps for one must not serve the other.
  ['contains, a common substring of name', 'filter[name][contains]=product%204'],
  ['contains, a rare substring of name', 'filter[name][contains]=99999'],
  ['contains, a common substring of description', 'filter[description][contains]=sturdy'],
  ['contains, a rare substring of description', 'filter[description][contains]=number%20123456.'],
  ['contains, a substring of a few hundred names', 'filter[name][contains]=9999'],
  ['contains, a substring of one name in a hundred', 'filter[name][contains]=product%2099'],
  ['order=-updated_at', 'order=-updated_at'],
  ['order=price_cents', 'order=price_cents'],
  ['filter[currency]=USD&order=-price_cents', 'filter[currency]=USD&order=-price_cents'],
  ['filter[price_cents][gte]=90000&order=name', 'filter[price_cents][gte]=90000&order=name'],
  ['default order (created_at)', ''],
];

// Filters through a relationship (SPEC 1.15) on an indexed attribute, on product_revisions
// (one per product): a to-one to products, rare among a million; a to-many from products.
const RELATED_PAGES: readonly (readonly [string, string])[] = [
  [
    'revisions whose product costs >= 999.90 (to-one, 100 of 1,000,000)',
    '/product_revisions?limit=25&filter[product.price_cents][gte]=99990',
  ],
  [
    'revisions of one product (to-one, by id)',
    `/product_revisions?limit=25&filter[product.id]=${seededProductId(500_000)}`,
  ],
  [
    'products with a revision of an id (to-many)',
    `/products?limit=25&filter[revisions.id]=${seededRevisionId(500_000)}`,
  ],
];

/** The parts of a scale run, all unless `--only` names some. */
export const SCALE_PARTS = ['pages', 'costly', 'writes'] as const;

export interface ScaleResults {
  pages?: { postgres: EngineResults; sqlite: EngineResults };
  neighbours?: NeighbourResults;
  writes?: { withIndexes: number[]; withoutIndexes: number[]; buildSeconds: number[] };
}

interface EngineResults {
  rows: number;
  /** Median ms per page, in the order of PAGES, then the first and the deep page of -updated_at. */
  pages: [string, number][];
  /** Median ms per page of RELATED_PAGES (PostgreSQL only). */
  related?: [string, number][];
  deep: { depth: number; first: number; deep: number; walkSeconds: number };
}

export async function measureAtScale(only?: readonly string[]): Promise<ScaleResults> {
  const wanted = (part: (typeof SCALE_PARTS)[number]) => !only || only.includes(part);
  await seedPostgres();
  const extraEnv = { DATABASE_SCHEMA: SCALE.schema };
  return {
    pages: wanted('pages')
      ? {
          postgres: await measurePages(extraEnv, SCALE.postgresRows, 'scale-postgres', true),
          sqlite: await onSqlite(),
        }
      : undefined,
    neighbours: wanted('costly') ? await costlyNeighbours(extraEnv) : undefined,
    writes: wanted('writes') ? await writesWithAndWithoutIndexes() : undefined,
  };
}

// The service's bound as configured, or as the bench's own environment sets it.
async function costlyNeighbours(extraEnv: NodeJS.ProcessEnv): Promise<NeighbourResults> {
  const bound = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('COSTLY_QUERY_')),
  );
  const server = await RunningServer.start(service({ ...extraEnv, ...bound }), 'scale-costly');
  try {
    return await measureCostlyNeighbours(server, seededProductId, SCALE.postgresRows);
  } finally {
    await server.stop();
  }
}

async function seedPostgres(): Promise<void> {
  const extraEnv = { DATABASE_SCHEMA: SCALE.schema };
  const sql = await connect();
  try {
    await sql.query(`CREATE SCHEMA IF NOT EXISTS "${SCALE.schema}"`);
    // The service's migrations make the tables and indexes; then the rows are loaded in SQL.
    const setup = await RunningServer.start(service(extraEnv), 'scale-setup');
    await setup.stop();
    const started = Date.now();
    if (await seedProductRows(sql, SCALE.schema, SCALE.postgresRows)) {
      console.log(`Loaded ${SCALE.postgresRows} products in ${Date.now() - started} ms.`);
    }
    const revisionsStarted = Date.now();
    if (await seedRevisionRows(sql, SCALE.schema)) {
      console.log(`Loaded their revisions in ${Date.now() - revisionsStarted} ms.`);
    }
  } finally {
    await sql.end();
  }
}

async function onSqlite(): Promise<EngineResults> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const extraEnv = { DATABASE_URL: undefined, SQLITE_PATH: join(folder, 'shop.sqlite') };
  try {
    const setup = await RunningServer.start(service(extraEnv), 'scale-sqlite-setup');
    await setup.stop();
    seedSqlite(extraEnv.SQLITE_PATH, SCALE.sqliteRows);
    return await measurePages(extraEnv, SCALE.sqliteRows, 'scale-sqlite');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// The same layout as the PostgreSQL seed, in TypeORM's SQLite time format.
function seedSqlite(path: string, count: number): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO products (id, created_at, updated_at, name, description, price_cents, currency, stock)
      SELECT '00000000-0000-7000-8000-' || printf('%012x', i),
             strftime('%Y-%m-%d %H:%M:%f', '2026-01-01', '+' || i || ' seconds'),
             strftime('%Y-%m-%d %H:%M:%f', '2026-01-01', '+' || i || ' seconds'),
             'Product ' || i,
             CASE WHEN i % 10 = 0 THEN NULL
                  ELSE 'A sturdy, well-made article of the bench catalogue, number ' || i || '.' END,
             (i * 7919) % 100000,
             CASE WHEN i % 10 = 5 THEN 'USD' ELSE 'EUR' END,
             1000000
      FROM n;
      ANALYZE;`);
  } finally {
    db.close();
  }
}

async function measurePages(
  extraEnv: NodeJS.ProcessEnv,
  rows: number,
  label: string,
  withRelated = false,
): Promise<EngineResults> {
  const server = await RunningServer.start(service(extraEnv), label);
  try {
    const base = `${server.url}/products?limit=25`;
    const pages: [string, number][] = [];
    for (const [title, query] of PAGES) {
      pages.push([title, await medianMs(query ? `${base}&${query}` : base)]);
    }
    const related: [string, number][] = [];
    for (const [title, path] of withRelated ? RELATED_PAGES : []) {
      related.push([title, await medianMs(`${server.url}${path}`)]);
    }
    const depth = Math.round(rows * 0.9);
    const walk = await cursorAt(server.url, 'order=-updated_at', depth);
    const deep = {
      depth,
      first: await medianMs(`${base}&order=-updated_at`),
      deep: await medianMs(`${base}&order=-updated_at&cursor=${encodeURIComponent(walk.cursor)}`),
      walkSeconds: walk.seconds,
    };
    return { rows, pages, related, deep };
  } finally {
    await server.stop();
  }
}

// A client's cursor after reading `depth` rows in that order, pages of 100.
async function cursorAt(
  serviceUrl: string,
  query: string,
  depth: number,
): Promise<{ cursor: string; seconds: number }> {
  const started = Date.now();
  let cursor: string | null = null;
  for (let read = 0; read < depth; read += 100) {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const body = await page(`${serviceUrl}/products?limit=100&${query}${after}`);
    cursor = body.cursor;
    if (!cursor) throw new Error(`the walk ended after ${read} rows`);
  }
  return { cursor: cursor!, seconds: (Date.now() - started) / 1000 };
}

async function medianMs(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SCALE.warmup + SCALE.samples; i += 1) {
    const started = performance.now();
    await page(url);
    if (i >= SCALE.warmup) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function page(url: string): Promise<{ data: unknown[]; cursor: string | null }> {
  const response = await fetch(url);
  const body = (await response.json()) as { data: unknown[]; cursor: string | null };
  if (response.status !== 200)
    throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

// S3 (admin creates) on the 1,000,000 products, with the collection indexes and without
// them, alternating; the indexes are made again at the end.
async function writesWithAndWithoutIndexes(): Promise<ScaleResults['writes']> {
  const extraEnv = { DATABASE_SCHEMA: SCALE.schema };
  const sql = await connect();
  const definitions = await sql.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)`,
    [SCALE.schema, SCALE.writeIndexes],
  );
  const results: ScaleResults['writes'] = { withIndexes: [], withoutIndexes: [], buildSeconds: [] };
  const server = await RunningServer.start(service(extraEnv), 'scale-writes');
  try {
    for (let round = 0; round < SCALE.writeRounds; round += 1) {
      results.withIndexes.push(await writesPerSecond(server));
      for (const { indexname } of definitions.rows) {
        await sql.query(`DROP INDEX "${SCALE.schema}"."${indexname}"`);
      }
      results.withoutIndexes.push(await writesPerSecond(server));
      const building = Date.now();
      for (const { indexdef } of definitions.rows) await sql.query(indexdef);
      results.buildSeconds.push((Date.now() - building) / 1000);
    }
  } finally {
    await server.stop();
    await resetWrites(sql, SCALE.schema);
    await sql.end();
  }
  return results;
}

async function writesPerSecond(server: RunningServer): Promise<number> {
  const result = await loadFor(server.url, 'S3', SCALE.writeSeconds, DATA_FILE);
  if (result.errors > 0) throw new Error(`S3 at scale: ${result.errors} errors`);
  return result.requestsPerSecond;
}

function service(extraEnv: NodeJS.ProcessEnv) {
  return { kind: 'service' as const, port: SCALE.port, processes: 1 as const, extraEnv };
}

/** The closing table of the scale run. */
export function renderScale({ pages, neighbours, writes }: ScaleResults): string {
  return [
    pages && renderPages(pages.postgres, pages.sqlite),
    neighbours && renderNeighbours(neighbours),
    writes && renderWrites(writes),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function renderPages(postgres: EngineResults, sqlite: EngineResults): string {
  const ms = (value: number) => value.toFixed(1);
  const rows = postgres.pages.map(
    ([title, value], i) => `| ${title} | ${ms(value)} | ${ms(sqlite.pages[i][1])} |`,
  );
  return [
    `### Collections at scale (limit 25, median of ${SCALE.samples} requests, ms)`,
    '',
    `| request | PostgreSQL, ${postgres.rows.toLocaleString('en')} products | SQLite, ${sqlite.rows.toLocaleString('en')} products |`,
    '| --- | ---: | ---: |',
    ...rows,
    `| order=-updated_at, first page | ${ms(postgres.deep.first)} | ${ms(sqlite.deep.first)} |`,
    `| order=-updated_at, page at depth ${postgres.deep.depth.toLocaleString('en')} / ${sqlite.deep.depth.toLocaleString('en')} | ${ms(postgres.deep.deep)} | ${ms(sqlite.deep.deep)} |`,
    '',
    `The walks to those depths (pages of 100) took ${postgres.deep.walkSeconds.toFixed(1)} s and ${sqlite.deep.walkSeconds.toFixed(1)} s.`,
    '',
    `#### Filters through a relationship (PostgreSQL, ${postgres.rows.toLocaleString('en')} products and as many revisions, ms)`,
    '',
    '| request | median ms |',
    '| --- | ---: |',
    ...(postgres.related ?? []).map(([title, value]) => `| ${title} | ${ms(value)} |`),
  ].join('\n');
}

function renderWrites(writes: NonNullable<ScaleResults['writes']>): string {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const withIndexes = median(writes.withIndexes);
  const without = median(writes.withoutIndexes);
  return [
    `Building the four product indexes of the collections migration on them took ${writes.buildSeconds.map((seconds) => seconds.toFixed(1)).join(' s and ')} s.`,
    `S3 (POST /products, admin, ${SCALE.writeSeconds} s rounds on the ${SCALE.postgresRows.toLocaleString('en')} products): ${Math.round(withIndexes)} req/s with the collection indexes, ${Math.round(without)} without them (${(withIndexes / without).toFixed(2)}x; rounds ${writes.withIndexes.map(Math.round).join(', ')} against ${writes.withoutIndexes.map(Math.round).join(', ')}).`,
  ].join('\n');
}
