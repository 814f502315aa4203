import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient, STATIC_ADMIN } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

type Line = Record<string, unknown> & { level: number; req?: Record<string, unknown> };

/** A service whose log lines the test reads, raw and parsed. */
async function serviceWithLogs(env: Record<string, string>) {
  const raw: string[] = [];
  const service = await startTestApp(env, { logs: { write: (line) => raw.push(line) } });
  const lines = () => raw.map((line) => JSON.parse(line) as Line);
  // A request's line is written when its response closes, which may follow the client's read.
  const linesOf = async (requestId: string, minimum = 1): Promise<Line[]> => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const found = lines().filter((line) => line.req?.id === requestId);
      if (found.length >= minimum) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no log line for ${requestId}:\n${raw.join('')}`);
  };
  return { service, raw, lines, linesOf };
}

const requestLineOf = (lines: Line[]) => lines.find((line) => line.msg === 'request completed');

describe('logs at info', () => {
  let logs: Awaited<ReturnType<typeof serviceWithLogs>>;
  let service: TestApp;
  const http = () => request(service.http);

  beforeAll(async () => {
    logs = await serviceWithLogs({ LOG_LEVEL: 'info', LOGIN_MAX_FAILURES_PER_EMAIL: '2' });
    service = logs.service;
  });
  afterAll(() => service.close());

  it('writes one line per request with the caller, route and timing, and no headers', async () => {
    const response = await http()
      .get('/users?limit=1')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Cookie', 'session=secret-cookie-value')
      .set('X-Request-Id', 'trace-me-1')
      .expect(200);
    expect(response.headers['x-request-id']).toBe('trace-me-1');
    const line = requestLineOf(await logs.linesOf('trace-me-1'))!;
    const admin = (response.body.data as { id: string; email: string }[])[0];
    expect(admin.email).toBe(STATIC_ADMIN.email);
    expect(line).toMatchObject({
      level: 30,
      req: {
        id: 'trace-me-1',
        method: 'GET',
        path: '/users',
        route: '/users',
        address: expect.stringMatching(/127\.0\.0\.1$/),
      },
      res: { status: 200 },
      domain: 'accounts',
      user: { id: admin.id, role: 'admin' },
      duration_ms: expect.any(Number),
    });
    const text = logs.raw.join('');
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).not.toContain('secret-cookie-value');
    expect(text).not.toMatch(/authorization|cookie|splat/i);
  });

  it('names the route template, and no user for an anonymous caller', async () => {
    await http().get('/products/no-such-id').set('X-Request-Id', 'trace-me-2').expect(404);
    const line = requestLineOf(await logs.linesOf('trace-me-2'))!;
    expect(line).toMatchObject({
      level: 30,
      req: { path: '/products/no-such-id', route: '/products/:id' },
      res: { status: 404 },
      domain: 'catalog',
      user: null,
    });
    await http().get('/nowhere').set('X-Request-Id', 'trace-me-3').expect(404);
    expect(requestLineOf(await logs.linesOf('trace-me-3'))).toMatchObject({
      req: { route: 'unmatched' },
      domain: 'none',
    });
  });

  it('logs failed logins, throttling and refused tokens as security events', async () => {
    const shop = new ShopClient(service.http);
    const email = `Watched-${randomUUID().slice(0, 8)}@Example.com`;
    const user = await shop.signUp(email);
    const attempt = async (id: string, status: number) =>
      http()
        .post('/sessions')
        .set('X-Request-Id', id)
        .send({ data: { email, password: 'wrong password' } })
        .expect(status);
    await attempt('login-1', 401);
    await attempt('login-2', 401);
    await attempt('login-3', 429);
    await http()
      .get(`/users/${user.id}`)
      .set('Authorization', 'Bearer forged.token.value')
      .set('X-Request-Id', 'token-1')
      .expect(401);

    const event = async (id: string, name: string) =>
      (await logs.linesOf(id, 2)).find((line) => line.event === name);
    expect(await event('login-1', 'login_failed')).toMatchObject({
      level: 40,
      req: { id: 'login-1' },
      user_id: user.id,
      email_domain: 'example.com',
      address: expect.stringMatching(/127\.0\.0\.1$/),
    });
    expect(await event('login-3', 'login_throttled')).toMatchObject({
      level: 40,
      by: ['email'],
      email_domain: 'example.com',
      retry_after: expect.any(Number),
    });
    expect(await event('token-1', 'token_refused')).toMatchObject({
      level: 40,
      address: expect.stringMatching(/127\.0\.0\.1$/),
    });
    const text = logs.raw.join('');
    expect(text.toLowerCase()).not.toContain(email.toLowerCase());
    expect(text).not.toContain('forged.token.value');
    expect(text).not.toContain('wrong password');
  });
});

describe('logs at warn', () => {
  it('writes no request lines, but security events', async () => {
    const logs = await serviceWithLogs({ LOG_LEVEL: 'warn' });
    try {
      await request(logs.service.http)
        .get('/users')
        .set('Authorization', 'Bearer forged.token.value')
        .set('X-Request-Id', 'quiet-1')
        .expect(401);
      await request(logs.service.http).get('/products').expect(200);
      const [event] = await logs.linesOf('quiet-1');
      expect(event).toMatchObject({ level: 40, event: 'token_refused' });
      expect(logs.lines().filter((line) => line.msg === 'request completed')).toEqual([]);
    } finally {
      await logs.service.close();
    }
  });
});
