import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

describe('operations endpoints', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp();
  });
  afterAll(() => service.close());

  it('GET /healthz answers 200 in the data envelope', async () => {
    const response = await request(service.http).get('/healthz').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ data: { status: 'ok' } });
  });

  it('GET /readyz checks the database of this run', async () => {
    const response = await request(service.http).get('/readyz').expect(200);
    expect(response.body).toEqual({ data: { status: 'ok' } });
  });

  it('returns the caller X-Request-Id, or generates one', async () => {
    const given = await request(service.http).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await request(service.http).get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('API_BASE_PATH', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({ API_BASE_PATH: '/api/v1' });
  });
  afterAll(() => service.close());

  it('puts every resource under the base path and keeps the probes at the root', async () => {
    await request(service.http).get('/api/v1/products').expect(200);
    const outside = await request(service.http).get('/products').expect(404);
    expect(outside.body).toEqual({ error: ['no such path'] });
    await request(service.http).get('/healthz').expect(200);
    await request(service.http).put('/api/v1/products').expect(405);
  });
});
