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
