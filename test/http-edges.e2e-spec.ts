import { createHash } from 'node:crypto';
import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

const SHOP = 'https://shop.example.com';

// What every answer carries, whatever its status.
function expectSecurityHeaders(response: request.Response): void {
  expect(response.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  expect(response.headers).not.toHaveProperty('x-powered-by');
  expect(response.headers).not.toHaveProperty('strict-transport-security');
  expect(
    Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
  ).toEqual([]);
}

describe('HTTP edges by default', () => {
  let service: TestApp;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp();
  });
  afterAll(() => service.close());

  it.each([
    ['a success', () => http().get('/products'), 200],
    ['an unknown path', () => http().get('/no/such/thing'), 404],
    ['an unknown id', () => http().get('/products/nope'), 404],
    ['an unsupported verb', () => http().put('/products'), 405],
    [
      'a malformed body',
      () => http().post('/users').set('Content-Type', 'application/json').send('{"data":'),
      400,
    ],
    ['a probe', () => http().get('/healthz'), 200],
    ['the OpenAPI document', () => http().get('/openapi.json'), 200],
  ])('%s carries the security headers and a CSP that allows nothing', async (_, send, status) => {
    const response = await send().set('Origin', SHOP).expect(status);
    expectSecurityHeaders(response);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('the /docs page gets a CSP that runs Swagger UI from the service itself', async () => {
    const page = await http().get('/docs').expect(200);
    expectSecurityHeaders(page);
    const policy = page.headers['content-security-policy'];
    expect(policy).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[\w+/=]{44}'; /);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    // The hash in the policy is the hash of the page's one inline script.
    const [, script] = /<script>(.*)<\/script>/.exec(page.text)!;
    expect(policy).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(page.text).not.toMatch(/https?:\/\//);
    await http().get('/docs/swagger-ui-bundle.js').expect(200);
  });

  it('OPTIONS is 405 in the envelope, with no CORS headers, when CORS is off', async () => {
    const response = await http()
      .options('/products')
      .set('Origin', SHOP)
      .set('Access-Control-Request-Method', 'POST')
      .expect(405);
    expectSecurityHeaders(response);
    expect(response.body).toEqual({ error: ['OPTIONS is not allowed here; allowed: GET, POST'] });
  });
});

describe('HTTP edges configured', () => {
  let service: TestApp;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp({
      CORS_ORIGINS: `${SHOP},http://localhost:8080`,
      HSTS_MAX_AGE: '31536000',
    });
  });
  afterAll(() => service.close());

  it('HSTS_MAX_AGE sends Strict-Transport-Security', async () => {
    const response = await http().get('/healthz').expect(200);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('answers a preflight from a listed origin with 204 and what the API accepts', async () => {
    const response = await http()
      .options('/orders/123')
      .set('Origin', SHOP)
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization,content-type,if-match')
      .expect(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': SHOP,
      'access-control-allow-methods': 'GET,POST,PATCH,DELETE',
      'access-control-allow-headers':
        'Authorization,Content-Type,Idempotency-Key,If-Match,If-None-Match,X-Request-Id',
      'access-control-max-age': '600',
      vary: expect.stringContaining('Origin'),
    });
    expect(response.headers).not.toHaveProperty('access-control-allow-credentials');
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.text).toBe('');
  });

  it('lets a listed origin read the answer and the headers clients need', async () => {
    const response = await http().get('/products').set('Origin', 'http://localhost:8080');
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:8080');
    expect(response.headers['access-control-expose-headers']).toBe(
      'Allow,Deprecation,ETag,Idempotent-Replayed,Retry-After,Sunset,WWW-Authenticate,X-Request-Id',
    );
  });

  it('gives another origin no CORS header at all, and its preflight a 405', async () => {
    const preflight = await http()
      .options('/products')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .expect(405);
    expect(preflight.body).toEqual({ error: ['OPTIONS is not allowed here; allowed: GET, POST'] });
    const read = await http().get('/products').set('Origin', 'https://evil.example.com');
    for (const response of [preflight, read]) {
      expect(
        Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
  });

  it('varies every answer on Origin, so that caches keep one per origin', async () => {
    for (const origin of [undefined, 'https://evil.example.com', SHOP]) {
      const test = http().get('/products');
      const response = await (origin ? test.set('Origin', origin) : test).expect(200);
      expect(response.headers.vary).toBe('Origin');
    }
  });

  it('an OPTIONS that is not a preflight is still 405, readable by the listed origin', async () => {
    const response = await http().options('/products').set('Origin', SHOP).expect(405);
    expect(response.headers['access-control-allow-origin']).toBe(SHOP);
    expect(response.body).toEqual({ error: ['OPTIONS is not allowed here; allowed: GET, POST'] });
  });
});
