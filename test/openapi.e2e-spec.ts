import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { isEmail } from 'class-validator';
import request from 'supertest';
import { isCalendarDate, isUtcTime } from '@app/resource-kit/validation/formats';
import { startTestApp, TestApp } from './support/test-app';

type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security: unknown[];
  requestBody?: unknown;
  parameters: ({ $ref: string } | { name: string; in: string; description?: string })[];
  responses: Record<string, { description: string; content?: unknown; headers?: object }>;
};
const VERBS = ['get', 'post', 'patch', 'delete'];

/** Every operation of the document, with its path and verb. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    VERBS.filter((verb) => item[verb]).map((verb) => ({
      path,
      verb,
      operation: item[verb] as Operation,
    })),
  );
}

/** Every named property under a schema, with where it sits. */
function propertiesOf(schema: Schema, at: string): [string, Schema][] {
  const own = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const branches = [
    ...((schema.oneOf ?? []) as Schema[]),
    ...(schema.items ? [schema.items as Schema] : []),
  ];
  return [
    ...own.flatMap(([name, property]): [string, Schema][] => [
      [`${at}.${name}`, property],
      ...propertiesOf(property, `${at}.${name}`),
    ]),
    ...branches.flatMap((branch) => propertiesOf(branch, at)),
  ];
}

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
    expect(Object.keys(body.paths['/orders/{id}'])).toEqual([
      'parameters',
      'description',
      'get',
      'patch',
    ]);
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

  it('describes every schema, property, operation and parameter', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const schemas = Object.entries(body.components.schemas as Record<string, Schema>);
    expect(schemas.filter(([, schema]) => !schema.description)).toEqual([]);
    const properties = schemas.flatMap(([name, schema]) => propertiesOf(schema, name));
    expect(properties.length).toBeGreaterThan(150);
    expect(properties.filter(([, property]) => !property.description).map(([at]) => at)).toEqual(
      [],
    );
    const operations = operationsOf(body);
    expect(operations.length).toBeGreaterThanOrEqual(46);
    const undescribed = operations.filter(
      ({ operation }) => !operation.summary || !operation.description,
    );
    expect(undescribed.map(({ verb, path }) => `${verb} ${path}`)).toEqual([]);
    const parameters: Operation['parameters'] = [
      ...Object.values(body.components.parameters as Record<string, { name: string; in: string }>),
      ...operations.flatMap(({ operation }) => operation.parameters ?? []),
    ];
    expect(parameters.filter((p) => !('$ref' in p) && !p.description)).toEqual([]);
    expect(body.components.schemas.products.properties.price_cents.description).toBe(
      'Unit price in minor units of currency',
    );
    expect(body.paths['/orders/{id}/order_items'].get.description).toMatch(
      /^The lines of the order, as checked out\. Needs a bearer token\./,
    );
    expect(body.tags).toContainEqual({
      name: 'orders',
      description: expect.stringMatching(
        /^Checking cart items out creates an order.* Methods: \/orders GET, POST; \/orders\/\{id\} GET, PATCH; \/orders\/\{id\}\/user GET; /,
      ),
    });
  });

  it('gives every schema an example that its schema accepts', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    // The service's own wire formats, stricter than JSON Schema's.
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      formats: {
        date: isCalendarDate,
        'date-time': isUtcTime,
        email: (text: string) => isEmail(text),
      },
    });
    for (const [name, schema] of Object.entries(
      body.components.schemas as Record<string, Schema>,
    )) {
      expect([name, schema.example]).toEqual([name, expect.anything()]);
      const validate = ajv.compile(schema);
      expect([name, validate(schema.example) ? [] : validate.errors]).toEqual([name, []]);
    }
    expect(body.components.schemas['products.create'].example).toEqual({
      data: {
        type: 'products',
        name: 'name text',
        description: 'description text',
        price_cents: 1250,
        currency: 'EUR',
        stock: 1,
        cost_cents: 1250,
      },
    });
  });

  it('lists every status an operation can answer, each with the error envelope', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const statuses = (path: string, verb: string) => Object.keys(body.paths[path][verb].responses);
    for (const { operation } of operationsOf(body)) {
      expect(operation.responses).toHaveProperty('500');
      expect(operation.responses['503'].headers).toHaveProperty('Retry-After');
      for (const [status, response] of Object.entries(operation.responses)) {
        if (+status >= 400)
          expect(response.content).toEqual({
            'application/json': { schema: { $ref: '#/components/schemas/Error' } },
          });
      }
      // Headers too large are refused before any route; a body too large before any handler.
      expect(operation.responses).toHaveProperty('431');
      if (operation.requestBody) expect(operation.responses).toHaveProperty('413');
      const needsToken = operation.security.length > 0;
      if (needsToken) expect(operation.responses['401'].headers).toHaveProperty('WWW-Authenticate');
    }
    // Log-in: public, yet 401 on wrong credentials and 429 when throttled.
    expect(statuses('/sessions', 'post')).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ]);
    expect(body.paths['/sessions'].post.responses['429'].headers).toHaveProperty('Retry-After');
    // Public reads: no 401; admin writes: 401 and 403; ETags: 304 and 412.
    expect(statuses('/products/{id}', 'get')).toEqual([
      '200',
      '304',
      '400',
      '404',
      '431',
      '500',
      '503',
    ]);
    expect(statuses('/products/{id}', 'delete')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '412',
      '431',
      '500',
      '503',
    ]);
    // Nothing refers to a session, so deleting one meets no conflict.
    expect(statuses('/sessions/{id}', 'delete')).toEqual([
      '200',
      '400',
      '401',
      '404',
      '412',
      '431',
      '500',
      '503',
    ]);
    // State moves: 403 for a move the role may not make, 409 for one not listed.
    expect(statuses('/orders/{id}', 'patch')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '412',
      '413',
      '415',
      '431',
      '500',
      '503',
    ]);
    expect(statuses('/products', 'get')).toEqual(['200', '400', '431', '500', '503']);
    expect(body.paths['/orders/{id}'].description).toBe(
      'Methods: GET, PATCH. Any other method answers 405 with Allow: GET, PATCH and the error envelope.',
    );
    const refused = await request(service.http).delete('/api/orders/any').expect(405);
    expect(refused.headers.allow).toBe('GET, PATCH');
  });

  it('answers headers too large (431) and a body too large (413) as the document lists them', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const validate = new Ajv2020({ strict: false }).compile(body.components.schemas.Error);
    const tooLong = await request(service.http)
      .get('/api/products')
      .set('Authorization', `Bearer ${'x'.repeat(20_000)}`)
      .expect(431);
    expect(body.paths['/products'].get.responses).toHaveProperty('431');
    expect(tooLong.headers['content-type']).toMatch(/^application\/json/);
    expect([tooLong.body, validate(tooLong.body)]).toEqual([tooLong.body, true]);
    // Sign-up is public: a body too large is refused before anything reads it.
    const tooBig = await request(service.http)
      .post('/api/users')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ data: { type: 'users', name: 'x'.repeat(2_000_000) } }))
      .expect(413);
    expect(body.paths['/users'].post.responses).toHaveProperty('413');
    expect([tooBig.body, validate(tooBig.body)]).toEqual([tooBig.body, true]);
  });

  it('types each filter by its attribute and operators, and lists the allowed orders', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const list = body.paths['/products'].get as Operation;
    const refs = list.parameters.map((parameter) => ('$ref' in parameter ? parameter.$ref : ''));
    expect(refs).toContain('#/components/parameters/products.filter.price_cents');
    const price = body.components.parameters['products.filter.price_cents'];
    expect(price).toMatchObject({ name: 'filter[price_cents]', in: 'query', style: 'deepObject' });
    expect(Object.keys(price.schema.properties)).toEqual([
      'eq',
      'ne',
      'lt',
      'lte',
      'gt',
      'gte',
      'in',
      'null',
    ]);
    expect(price.schema.properties.gte).toEqual({ type: 'integer' });
    const currency = body.components.parameters['products.filter.currency'].schema.properties;
    expect(currency.eq.enum).toContain('EUR');
    expect(currency).not.toHaveProperty('contains');
    expect(body.components.parameters['products.filter.name'].schema.properties).toHaveProperty(
      'contains',
    );
    expect(body.components.parameters['events.filter.subject.type']).toBeDefined();
    const order = body.components.parameters['products.order'];
    expect(order).toMatchObject({ name: 'order', style: 'form', explode: false });
    expect(order.schema.items.enum).toEqual(
      expect.arrayContaining(['price_cents', '-price_cents', 'id']),
    );
    // What the declared indexes serve is marked; the rest is allowed and says it scans.
    const backed = (parameter: string) =>
      body.components.parameters[parameter]['x-index-backed'] as string[];
    const btree = ['eq', 'lt', 'lte', 'gt', 'gte', 'in'];
    expect(backed('products.filter.name')).toEqual([...btree, 'contains', 'null']);
    expect(backed('products.filter.description')).toEqual(['contains']);
    expect(backed('products.filter.price_cents')).toEqual([...btree, 'null']);
    expect(backed('products.filter.stock')).toEqual([]);
    const costly = (parameter: string) =>
      body.components.parameters[parameter]['x-costly'] as string[];
    // Every operator of an integer no index serves, in the parameter's own order.
    expect(costly('products.filter.stock')).toEqual(Object.keys(price.schema.properties));
    expect(costly('products.filter.name')).toEqual(['ne']);
    expect(costly('products.order')).toContain('stock');
    expect(costly('products.order')).not.toContain('price_cents');
    expect(body.components.parameters['products.filter.stock'].description).toMatch(
      /No index backs it\. Conditions are costly: no index serves them, so at most a few run at once per instance, anonymous and signed-in callers each in a pool of their own/,
    );
    expect(body.components.parameters['products.filter.name'].description).toMatch(
      /contains is index-backed when the trigram index can look the substring up \(by the database's own word characters/,
    );
    // A customer's list of orders is confined to its own, by the (user_id, ...) index.
    expect(body.components.parameters['orders.filter.total_cents'].description).toMatch(
      /A caller other than an administrator lists only its own rows, through an index: for it, no condition or order is costly\.$/,
    );
    expect(body.components.parameters['products.filter.stock'].description).not.toMatch(
      /its own rows/,
    );
    expect(backed('products.order')).toEqual(
      expect.arrayContaining([
        '-updated_at',
        'updated_at',
        'created_at',
        'price_cents',
        '-name',
        'id',
      ]),
    );
    expect(backed('products.order')).not.toContain('stock');
    expect(backed('orders.filter.status')).toContain('eq');
    // The document's filter and order, used as written, are accepted by the service.
    await request(service.http)
      .get(
        '/api/products?filter[price_cents][gte]=100&filter[name][contains]=cup&order=-price_cents,name',
      )
      .expect(200);
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
