import request from 'supertest';
import { ADMIN_TOKEN } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Prometheus text format: `name{label="value",...} number`, comments start with #.
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels = '', value] = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const pairs = [...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, key, v]) => [key, v]);
      return { name, labels: Object.fromEntries(pairs), value: Number(value) };
    });
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

describe('GET /metrics', () => {
  let service: TestApp;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp();
  });
  afterAll(() => service.close());

  it('counts requests and their latency by route template, method and status', async () => {
    await http().get('/products?limit=1').expect(200);
    await http().get('/products').expect(200);
    await http().get('/products/no-such-id').expect(404);
    await http().get('/products/another-id').expect(404);
    await http().put('/products').expect(405);
    await http().get('/no/such/path').expect(404);
    await http().get('/users').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(200);

    const response = await http().get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parse(response.text);
    const requests = (route: string, method: string, status: string) =>
      valueOf(samples, 'http_requests_total', { route, method, status });
    expect(requests('/products', 'GET', '200')).toBe(2);
    expect(requests('/products/:id', 'GET', '404')).toBe(2);
    expect(requests('/products', 'PUT', '405')).toBe(1);
    expect(requests('unmatched', 'GET', '404')).toBe(1);
    expect(requests('/users', 'GET', '200')).toBe(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', {
        route: '/products/:id',
        method: 'GET',
        status: '404',
      }),
    ).toBe(2);
    expect(
      valueOf(samples, 'http_request_duration_seconds_bucket', {
        route: '/products',
        method: 'GET',
        status: '200',
        le: '+Inf',
      }),
    ).toBe(2);
    // Paths never become labels: cardinality stays bounded by the routes.
    const routes = new Set(
      samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route),
    );
    expect([...routes].sort()).toEqual(['/products', '/products/:id', '/users', 'unmatched']);
    // Readable per domain (SPEC 1.18): the domain that serves the route's resource type.
    const perDomain = (domain: string) =>
      samples
        .filter((s) => s.name === 'http_requests_total' && s.labels.domain === domain)
        .reduce((sum, s) => sum + s.value, 0);
    expect(perDomain('catalog')).toBe(5);
    expect(perDomain('accounts')).toBe(1);
    expect(perDomain('none')).toBe(1);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('reports the PostgreSQL pool at scrape time (SQLite has none)', async () => {
    const samples = parse((await http().get('/metrics').expect(200)).text);
    const pool = ['db_pool_connections', 'db_pool_idle_connections', 'db_pool_waiting_clients'].map(
      (name) => valueOf(samples, name),
    );
    if (process.env.TEST_DATABASE === 'postgres') {
      expect(pool[0]).toBeGreaterThanOrEqual(1);
      expect(pool[1]).toBeLessThanOrEqual(pool[0]!);
      expect(pool[2]).toBe(0);
    } else {
      expect(pool).toEqual([undefined, undefined, undefined]);
    }
  });
});

describe('GET /metrics with METRICS_TOKEN, outside API_BASE_PATH', () => {
  const token = 'metrics-token-for-the-e2e-tests';
  let service: TestApp;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp({ METRICS_TOKEN: token, API_BASE_PATH: '/api' });
  });
  afterAll(() => service.close());

  it('answers 401 in the envelope without the token or with another', async () => {
    for (const authorization of [undefined, `Bearer ${token}x`, token, `Bearer ${ADMIN_TOKEN}`]) {
      const test = http().get('/metrics');
      const response = await (authorization ? test.set('Authorization', authorization) : test);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body).toEqual({
        error: ['GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'],
      });
    }
  });

  it('answers the metrics with the token, at the root only', async () => {
    await http().get('/api/products').expect(200);
    const response = await http()
      .get('/metrics')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(
      valueOf(parse(response.text), 'http_requests_total', {
        route: '/api/products',
        method: 'GET',
        status: '200',
      }),
    ).toBe(1);
    await http().get('/api/metrics').set('Authorization', `Bearer ${token}`).expect(404);
  });
});
