import { ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, HAPROXY } from './support/local-servers';
import { scaledMs } from './support/machine-load';
import { ServiceProcess, startService, waitFor } from './support/service-process';
import { ADMIN_TOKEN, STATIC_ADMIN } from './support/shop-client';
import { createTestDatabase, TestDatabase } from './support/test-database';

// Two service processes on PostgreSQL and Redis behind HAProxy with the configuration that
// deploy/ ships, once, in the PostgreSQL project.
const runs = process.env.TEST_DATABASE === 'postgres' && !process.env.TEST_DATABASE_POOLER;
if (runs && !HAPROXY) {
  console.warn(
    '\n*** gateway spec SKIPPED: HAProxy is not installed (apt-get install haproxy). ***\n',
  );
}
const behindGateway = runs && HAPROXY ? describe : describe.skip;
const CONFIG = join(__dirname, '..', 'deploy', 'haproxy.cfg');

behindGateway('behind a real gateway (deploy/haproxy.cfg)', () => {
  jest.setTimeout(scaledMs(90_000));
  let database: TestDatabase;
  let gateway: ChildProcess;
  let origin: string;
  const instances: { port: number; service: ServiceProcess }[] = [];

  const startInstance = async (port: number) => {
    const service = startService({
      NODE_ENV: 'production',
      PORT: String(port),
      JWT_SECRET: 'Kd8sW2nQ5vR7xT1mZ4pL9cH3jF6yB0gA',
      STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
      REDIS_URL: 'redis://127.0.0.1:6379',
      // Only the gateway's own address: a client's X-Forwarded-For is never believed.
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_GRACE_MS: '5000',
      ...database.env,
    });
    await service.listening();
    return service;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    for (const port of [await freePort(), await freePort()]) {
      // One after the other: the first applies the migrations.
      instances.push({ port, service: await startInstance(port) });
    }
    const gatewayPort = await freePort();
    gateway = spawn(HAPROXY!, ['-db', '-f', CONFIG], {
      env: {
        GATEWAY_BIND: `127.0.0.1:${gatewayPort}`,
        API_1: `127.0.0.1:${instances[0].port}`,
        API_2: `127.0.0.1:${instances[1].port}`,
      },
      stdio: 'ignore',
    });
    origin = `http://127.0.0.1:${gatewayPort}`;
    const deadline = Date.now() + scaledMs(15_000);
    while (
      Date.now() < deadline &&
      (await fetch(`${origin}/readyz`).catch(() => undefined))?.status !== 200
    ) {
      await sleep(100);
    }
  });
  afterAll(async () => {
    gateway?.kill('SIGTERM');
    for (const { service } of instances) service.child.kill('SIGKILL');
    await database.drop();
  });

  it('restarts both instances one after the other under load without losing a request', async () => {
    const outcomes: string[] = [];
    let running = true;
    const client = async (index: number) => {
      for (let i = 0; running; i++) {
        const write = i % 3 === 0;
        const response = await fetch(`${origin}/products${write ? '' : '?limit=5'}`, {
          method: write ? 'POST' : 'GET',
          headers: write
            ? { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' }
            : {},
          body: write
            ? JSON.stringify({ data: { name: `Load ${index}-${i}`, price_cents: 100, stock: 1 } })
            : undefined,
        }).catch((error: Error) => error);
        outcomes.push(response instanceof Error ? response.message : String(response.status));
      }
    };
    const load = Array.from({ length: 6 }, (_, index) => client(index));
    await sleep(500);
    for (const instance of instances) {
      instance.service.child.kill('SIGTERM');
      expect(await instance.service.exit()).toEqual({ code: 0, signal: null });
      instance.service = await startInstance(instance.port);
      // The gateway takes it back after two good health checks: the next one is stopped only
      // once the load reaches this one (a fixed wait was too short on a loaded machine).
      await waitFor(instance.service.output, /"path":"\/products"/);
    }
    await sleep(500);
    running = false;
    await Promise.all(load);
    const failures = outcomes.filter((outcome) => outcome !== '200' && outcome !== '201');
    expect(failures).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
  });

  it('logs the client address the gateway saw, not the one a client claims', async () => {
    const requestId = `gateway-${Date.now()}`;
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${origin}/products?limit=1`);
      httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          // Another loopback address than the gateway's own, as a remote client would be.
          localAddress: '127.0.0.2',
          headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Request-Id': requestId },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    const logs = () => instances.map(({ service }) => service.output()).join('');
    const [line] = await waitFor(logs, new RegExp(`.*"id":"${requestId}".*`));
    expect(JSON.parse(line)).toMatchObject({ req: { id: requestId, address: '127.0.0.2' } });
  });
});
