import { randomBytes } from 'node:crypto';
import { ServiceProcess, startService } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { scaledMs } from './support/machine-load';

// Two real service processes on one PostgreSQL schema and one Redis, as README's
// "Several instances" runs them.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;
jest.setTimeout(scaledMs(60_000));

const unique = (name: string) => `${name}-${randomBytes(6).toString('hex')}@example.com`;

onPostgres('several instances', () => {
  let database: TestDatabase;
  const instances: { service: ServiceProcess; url: string }[] = [];

  // Redis outlives the run: a fresh client address keeps earlier runs' counts out.
  const address = `10.3.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const call = (at: number, method: string, path: string, token?: string, data?: object) =>
    fetch(`${instances[at].url}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(data ? { 'Content-Type': 'application/json' } : {}),
        'X-Forwarded-For': address,
      },
      body: data ? JSON.stringify({ data }) : undefined,
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    // One after the other: the first applies the migrations.
    for (let index = 0; index < 2; index++) {
      const service = startService({
        NODE_ENV: 'production',
        JWT_SECRET: 'Nw5tR8yB2kQ6vX1mZ4pL7cH0jF3sD9gT',
        REDIS_URL: 'redis://127.0.0.1:6379',
        // The spec's X-Forwarded-For names the client, as a gateway on this host would.
        TRUST_PROXY: 'loopback',
        ...database.env,
      });
      instances.push({ service, url: `http://127.0.0.1:${await service.listening()}` });
    }
  });
  afterAll(async () => {
    for (const { service } of instances) service.child.kill('SIGKILL');
    await database.drop();
  });

  it('a token from one works on the other, and a logout on one is refused at once by the other', async () => {
    const email = unique('nia');
    const password = 'correct horse battery';
    const signUp = await call(0, 'POST', '/users', undefined, { email, name: 'Nia', password });
    expect(signUp.status).toBe(201);
    const session = (await (
      await call(1, 'POST', '/sessions', undefined, { email, password })
    ).json()) as {
      data: { id: string; token: string; user_id: string };
    };
    const { id, token, user_id: userId } = session.data;
    expect((await call(0, 'GET', `/users/${userId}`, token)).status).toBe(200);
    expect((await call(0, 'DELETE', `/sessions/${id}`, token)).status).toBe(200);
    expect((await call(1, 'GET', `/users/${userId}`, token)).status).toBe(401);
  });

  it('counts failed logins across both instances (through Redis)', async () => {
    const email = unique('ivo');
    const password = 'correct horse battery';
    expect(
      (await call(0, 'POST', '/users', undefined, { email, name: 'Ivo', password })).status,
    ).toBe(201);
    for (const at of [0, 1, 0, 1, 0]) {
      const failed = await call(at, 'POST', '/sessions', undefined, {
        email,
        password: 'wrong password',
      });
      expect(failed.status).toBe(401);
    }
    const refused = await call(1, 'POST', '/sessions', undefined, { email, password });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('both stop cleanly on SIGTERM', async () => {
    for (const { service } of instances) service.child.kill('SIGTERM');
    for (const { service } of instances)
      expect(await service.exit()).toEqual({ code: 0, signal: null });
  });
});
