// Pagination benchmark: the median latency of one page (limit 25) at growing depths of a
// 1,000,000-row PostgreSQL table, keyset cursor against OFFSET, over HTTP through the kit.
// Run: npm run bench:pagination   (BENCH_DATABASE_URL, default the local test database)
process.env.TZ = 'UTC';
import 'reflect-metadata';
import { INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Attribute } from '../src/decorators/attribute.decorator';
import { Resource } from '../src/decorators/resource.decorator';
import { ResourceEntity } from '../src/decorators/resource-entity';
import { cursorCodecFor, ResourceKitModule } from '../src/resource-kit.module';
import { ResourceModule } from '../src/resource.module';
import { ResourceKitAdapter } from '../src/http/resource-kit.adapter';
import type { PaginationStyle } from '../src/query/pagination';

const URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_pagination_${process.pid}`;
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DEPTHS = [0, 10_000, 100_000, 500_000, 900_000].filter((depth) => depth < ROWS);
const SAMPLES = 40;
const SECRET = 'bench-secret';

@Resource({ type: 'bench_rows', access: { list: 'public' } })
class BenchRow extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 50 })
  name!: string;
}

async function main(): Promise<void> {
  const sql = new Client({ connectionString: URL });
  await sql.connect();
  await sql.query(`CREATE SCHEMA "${SCHEMA}"`);
  const apps: INestApplication[] = [];
  try {
    const cursor = await startApp('cursor');
    apps.push(cursor.app);
    await seed(sql);
    const offset = await startApp('offset');
    apps.push(offset.app);
    const rows: string[] = [];
    for (const depth of DEPTHS) {
      const cursorMs = await median(cursor.base + (await cursorQuery(sql, depth)));
      const offsetMs = await median(`${offset.base}?limit=25&offset=${depth}`);
      rows.push(
        `| ${depth.toLocaleString('en')} | ${cursorMs.toFixed(2)} | ${offsetMs.toFixed(2)} |`,
      );
    }
    console.log(
      `\n${ROWS.toLocaleString('en')} rows, limit 25, median of ${SAMPLES} requests (ms)\n`,
    );
    console.log('| depth | cursor | OFFSET |\n|---:|---:|---:|\n' + rows.join('\n'));
  } finally {
    await Promise.all(apps.map((app) => app.close()));
    await sql.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
    await sql.end();
  }
}

async function startApp(pagination: PaginationStyle) {
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        type: 'postgres',
        url: URL,
        extra: { options: `-c timezone=UTC -c search_path=${SCHEMA}` },
        autoLoadEntities: true,
        synchronize: pagination === 'cursor',
      }),
      ResourceKitModule.forRoot({
        secret: SECRET,
        pagination,
        auth: {
          jwt: {
            algorithm: 'HS256',
            secret: SECRET,
            issuer: 'bench',
            audience: 'bench',
            lifetimeSeconds: 60,
          },
        },
      }),
      ResourceModule.forFeature(BenchRow),
    ],
  })
  class BenchModule {}
  const app = await NestFactory.create(BenchModule, new ResourceKitAdapter(), {
    bodyParser: false,
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}/bench_rows` };
}

// Rows one millisecond apart, ids in insertion order, as the service would write them.
async function seed(sql: Client): Promise<void> {
  const started = Date.now();
  await sql.query(`
    INSERT INTO "${SCHEMA}".bench_rows (id, created_at, updated_at, name)
    SELECT lpad(to_hex(i), 36, '0'), t, t, 'row ' || i
    FROM generate_series(1, ${ROWS}) AS i,
         LATERAL (SELECT timestamp '2026-01-01' + i * interval '1 millisecond' AS t) AS times`);
  await sql.query(`ANALYZE "${SCHEMA}".bench_rows`);
  console.log(
    `seeded ${ROWS.toLocaleString('en')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

// The cursor a client holds after reading `depth` rows: the keys of the depth-th row.
async function cursorQuery(sql: Client, depth: number): Promise<string> {
  if (depth === 0) return '?limit=25';
  const { rows } = await sql.query<{ created_at: Date; id: string }>(
    `SELECT created_at, id FROM "${SCHEMA}".bench_rows ORDER BY created_at, id OFFSET $1 LIMIT 1`,
    [depth - 1],
  );
  const binding = JSON.stringify([[], ['created_at', 'id']]);
  const cursor = cursorCodecFor(SECRET).encode(
    [rows[0].created_at.toISOString(), rows[0].id],
    binding,
  );
  return `?limit=25&cursor=${encodeURIComponent(cursor)}`;
}

async function median(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 5; i += 1) {
    const started = performance.now();
    const response = await fetch(url);
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || body.data?.length !== 25)
      throw new Error(`bad page from ${url}`);
    if (i >= 5) times.push(performance.now() - started); // the first five warm caches
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

void main();
