import request from 'supertest';
import { loadConfig } from '../apps/api/src/config/app-config';
import {
  hasPostgresServer,
  POSTGRES_BIN,
  POSTGRES_INSTALL,
  PrimaryAndStandby,
  startPrimaryAndStandby,
} from './support/postgres-cluster';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';
import type { TestDatabase } from './support/test-database';
import { scaledMs } from './support/machine-load';

// A primary and a hot standby of this spec's own: once, in the PostgreSQL project.
const runs = process.env.TEST_DATABASE === 'postgres' && !process.env.TEST_DATABASE_POOLER;
if (runs && !hasPostgresServer()) {
  console.warn(
    `\n*** replicas spec SKIPPED: no initdb, pg_ctl and pg_basebackup in ${POSTGRES_BIN} (${POSTGRES_INSTALL}; or set POSTGRES_BIN). ***\n`,
  );
}
const withCluster = runs && hasPostgresServer() ? describe : describe.skip;

withCluster('read replicas (DATABASE_REPLICA_URLS)', () => {
  jest.setTimeout(scaledMs(60_000));
  let cluster: PrimaryAndStandby;
  let service: TestApp;
  let admin: ReturnType<ShopClient['as']>;
  const anonymous = (path: string) => request(service.http).get(path);

  beforeAll(async () => {
    cluster = await startPrimaryAndStandby();
    const env = {
      DATABASE_URL: cluster.primary.url,
      DATABASE_SCHEMA: 'shop',
      DATABASE_REPLICA_URLS: cluster.standby.url,
    };
    const database: TestDatabase = {
      config: loadConfig({ NODE_ENV: 'test', ...env }).database,
      env,
      drop: () => Promise.resolve(),
    };
    service = await startTestApp({}, { database });
    admin = new ShopClient(service.http).as(ADMIN_TOKEN);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await cluster?.remove();
  });

  const replicaHealthy = async () => {
    const { text } = await anonymous('/metrics').expect(200);
    const line = text.split('\n').find((entry) => entry.startsWith('db_replica_healthy{'));
    return line?.endsWith(' 1') ?? false;
  };
  const eventually = async (check: () => Promise<boolean>, withinMs = 15_000) => {
    const deadline = Date.now() + withinMs;
    while (!(await check()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return check();
  };

  it('a caller reads every write of theirs at once: 30 rounds of write then read', async () => {
    expect(await replicaHealthy()).toBe(true);
    for (let round = 0; round < 30; round++) {
      const created = await admin
        .post('/products', { name: `Round ${round}`, price_cents: 100 + round, stock: 1 })
        .expect(201);
      const id = (created.body as { data: { id: string } }).data.id;
      const read = await admin.get(`/products/${id}`).expect(200);
      expect(read.body.data.name).toBe(`Round ${round}`);
      await admin.patch(`/products/${id}`, { price_cents: 5_000 + round }).expect(200);
      expect((await admin.get(`/products/${id}`).expect(200)).body.data.price_cents).toBe(
        5_000 + round,
      );
    }
    // Anonymous reads come from the standby, once it has replayed the writes.
    expect(
      await eventually(async () => {
        const { body } = await anonymous('/products?filter[name][contains]=round&limit=100');
        return (body as { data?: unknown[] }).data?.length === 30;
      }),
    ).toBe(true);
  });

  it('with the standby stopped, reads answer 200 from the primary; started again, it is taken back', async () => {
    await cluster.standby.stop();
    // The first read after the stop finds the replica gone and runs again on the primary.
    for (let i = 0; i < 5; i++) {
      expect((await anonymous('/products?limit=5')).status).toBe(200);
    }
    expect(await replicaHealthy()).toBe(false);
    await cluster.standby.start();
    expect(await eventually(replicaHealthy)).toBe(true);
  });

  it('with the primary stopped, public reads answer 200 from the standby and writes 503', async () => {
    const { body } = await anonymous('/products?limit=1').expect(200);
    const id = (body as { data: { id: string }[] }).data[0].id;
    await cluster.primary.stop();
    try {
      expect((await anonymous('/products?limit=5')).status).toBe(200);
      expect((await anonymous(`/products/${id}`)).status).toBe(200);
      const write = await admin.post('/products', { name: 'Late', price_cents: 1, stock: 1 });
      expect(write.status).toBe(503);
      expect(write.headers['retry-after']).toBe('5');
      expect(write.body).toEqual({ error: ['the database is unavailable; try again later'] });
      // A gateway keeps the instance for the reads it can still answer.
      expect((await anonymous('/readyz').expect(200)).body).toEqual({
        data: { status: 'read-only' },
      });
    } finally {
      await cluster.primary.start();
    }
  });
});
