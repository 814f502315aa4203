import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

describe('API documentation', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({ API_BASE_PATH: '/api' });
  });
  afterAll(() => service.close());

  it('GET /openapi.json is a valid OpenAPI 3.1 document of every resource', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(body.servers).toEqual([{ url: '/api' }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/products',
        '/products/{id}',
        '/products/{id}/revisions',
        '/orders/{id}/order_items',
        '/users/{id}/cart',
        '/events',
      ]),
    );
    expect(Object.keys(body.paths['/orders/{id}'])).toEqual(['parameters', 'get', 'patch']);
    expect(body.paths['/products'].get.security).toEqual([]);
    expect(body.paths['/products'].post.security).toEqual([{ bearer: [] }]);
    expect(body.components.schemas.users.properties).not.toHaveProperty('password');
    expect(body.components.schemas['users.create'].properties.data.properties).toHaveProperty(
      'password',
    );
    expect(body.components.schemas['sessions.created'].required).toContain('token');
    expect(body.components.schemas.sessions.properties).not.toHaveProperty('token');
    expect(body.components.schemas.Error).toMatchObject({ required: ['error'] });
  });

  it('describes Idempotency-Key, ETag, If-None-Match and If-Match with their statuses', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const names = (operation: { parameters: { name: string; in: string }[] }) =>
      operation.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    const create = body.paths['/orders'].post;
    expect(names(create)).toEqual(['Idempotency-Key']);
    expect(Object.keys(create.responses['201'].headers)).toEqual(['ETag', 'Idempotent-Replayed']);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '422']));
    const read = body.paths['/products/{id}'].get;
    expect(names(read)).toEqual(['If-None-Match']);
    expect(read.responses['304']).toBeDefined();
    expect(read.responses['200'].headers).toHaveProperty('ETag');
    expect(body.paths['/users/{id}/cart'].get.responses['304']).toBeDefined();
    for (const verb of ['patch', 'delete']) {
      const write = body.paths['/products/{id}'][verb];
      expect(names(write)).toEqual(['If-Match']);
      expect(write.responses['412'].content).toBeDefined();
    }
    expect(body.paths['/products'].get.responses['200'].headers).toBeUndefined();
  });

  it('GET /docs is an interactive page on the document, with its assets', async () => {
    const page = await request(service.http).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain("url: '/openapi.json'");
    await request(service.http).get('/docs/swagger-ui-bundle.js').expect(200);
    const missing = await request(service.http).get('/docs/package.json').expect(404);
    expect(missing.body).toEqual({ error: ['no such path'] });
  });
});
