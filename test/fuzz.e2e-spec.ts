import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  AttributeDefinition,
  Operation,
  ResourceDefinition,
  ResourceRegistry,
} from '@app/resource-kit';
import { checksum } from './support/database-checksum';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// Property: whatever a client sends to any route of any resource, the answer is never a 5xx,
// always the JSON envelope, and a rejected request changes nothing stored.
// FUZZ_SEED replays a failure (fast-check prints the seed); FUZZ_RUNS runs longer.
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

interface Call {
  method: 'get' | 'post' | 'patch' | 'delete' | 'put';
  path: string;
  query: string;
  token?: string;
  headers: Record<string, string>;
  body?: string;
}

describe('fuzzing every route', () => {
  let service: TestApp;
  let definitions: ResourceDefinition[];
  let ids: Map<string, string[]>;
  let customerToken: string;

  beforeAll(async () => {
    service = await startTestApp();
    definitions = service.app.get(ResourceRegistry).definitions();
    const customer = await seed(new ShopClient(service.http));
    customerToken = customer.token;
    ids = await idsByType(service, definitions);
    // The customer's own session stays out of reach, or one DELETE would end its token.
    ids.set(
      'sessions',
      ids.get('sessions')!.filter((id) => id !== customer.sessionId),
    );
  }, 30_000);
  afterAll(() => service.close());

  it('never answers 5xx, always answers the envelope, and a 4xx changes nothing', async () => {
    const dataSource = service.app.get(DataSource);
    // Anonymous, a customer, the admin, and tokens to refuse (garbage, an unsigned JWT).
    const callers = [
      undefined,
      customerToken,
      ADMIN_TOKEN,
      'not-a-token',
      'eyJhbGciOiJub25lIn0.e30.',
    ];
    await fc.assert(
      fc.asyncProperty(callArbitrary(definitions, ids, callers), async (call) => {
        const before = await checksum(dataSource);
        const response = await send(service, call);
        const shown = `${call.method.toUpperCase()} ${call.path}?${call.query} -> ${response.status} ${response.text}`;
        expect([shown, response.status < 500]).toEqual([shown, true]);
        expect([shown, response.headers['content-type']]).toEqual([
          shown,
          expect.stringMatching(/^application\/json/),
        ]);
        expect([shown, isEnvelope(response.body)]).toEqual([shown, true]);
        if (response.status >= 400)
          expect([shown, await checksum(dataSource)]).toEqual([shown, before]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);
});

// A few real rows of every resource: products, a customer with a cart item and an order
// (which also keeps the customer from being deleted: 409).
async function seed(shop: ShopClient): Promise<{ token: string; sessionId: string }> {
  const admin = shop.as(ADMIN_TOKEN);
  const products = [];
  for (const [name, price] of [
    ['Teapot', 1250],
    ['Cup', 300],
  ] as const) {
    const created = await admin.post('/products', { name, price_cents: price, stock: 50 });
    products.push(created.body.data.id as string);
  }
  const { token, user, session } = await shop.customer(
    `fuzz-${randomUUID().slice(0, 8)}@example.com`,
  );
  const customer = shop.as(token);
  const items = [];
  for (const product of products) {
    const item = await customer.post('/cart_items', {
      cart_id: user.id,
      product_id: product,
      quantity: 2,
    });
    items.push(item.body.data.id as string);
  }
  await customer.post('/orders', { cart_item_ids: [items[0]] }).expect(201);
  return { token, sessionId: session.id };
}

async function idsByType(
  service: TestApp,
  definitions: ResourceDefinition[],
): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  for (const { type } of definitions) {
    const { body } = await request(service.http)
      .get(`/${type}`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .expect(200);
    ids.set(
      type,
      (body.data as { id: string }[]).map((row) => row.id),
    );
  }
  return ids;
}

function send(service: TestApp, call: Call) {
  const url = call.query ? `${call.path}?${call.query}` : call.path;
  const test = request(service.http)[call.method](url).set(call.headers);
  if (call.token) test.set('Authorization', `Bearer ${call.token}`);
  return call.body === undefined ? test : test.send(call.body);
}

function isEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  if (keys.includes('data')) return keys.every((key) => key === 'data' || key === 'cursor');
  const { error } = body as { error?: unknown };
  return (
    keys.length === 1 &&
    Array.isArray(error) &&
    error.length > 0 &&
    error.every((message) => typeof message === 'string')
  );
}

// ---- Arbitraries ---------------------------------------------------------------------------
// Mostly near-valid calls (a supported verb, a known id, a body close to the declaration), so
// that the kit's checks pass and the resources' own code runs; some of everything else.

const METHOD_OF: Record<Operation, Call['method']> = {
  list: 'get',
  create: 'post',
  read: 'get',
  update: 'patch',
  delete: 'delete',
};
const ANY_METHOD = ['get', 'post', 'patch', 'delete', 'put'] as const;

const oddText = fc.constantFrom(
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x'.repeat(300),
  '%',
  '__proto__',
  'constructor',
  '1e999',
  '-0',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '😀',
);
const text = fc.oneof(fc.string({ maxLength: 20 }), oddText);
const often = <T>(usual: fc.Arbitrary<T>, other: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: other });

interface Known {
  ids: Map<string, string[]>;
  /** Ids of the resources an attribute refers to. */
  targetIds(attribute: AttributeDefinition): string[];
}

function callArbitrary(
  definitions: ResourceDefinition[],
  ids: Map<string, string[]>,
  callers: (string | undefined)[],
): fc.Arbitrary<Call> {
  const typeOf = new Map(definitions.map((definition) => [definition.entity, definition.type]));
  const allIds = [...ids.values()].flat();
  const known: Known = {
    ids,
    targetIds: (attribute) => {
      const target = attribute.reference?.target();
      return (target && ids.get(typeOf.get(target)!)) ?? allIds;
    },
  };
  const routes = definitions.flatMap((definition) =>
    [...definition.operations].map((operation) => ({ definition, operation })),
  );
  return fc
    .record({
      route: fc.constantFrom(...routes),
      method: often(fc.constant(undefined), fc.constantFrom(...ANY_METHOD)),
      token: fc.constantFrom(...callers),
      headers: headersArbitrary(),
    })
    .chain(({ route: { definition, operation }, method, token, headers }) =>
      fc.record({
        method: fc.constant(method ?? METHOD_OF[operation]),
        path: pathArbitrary(definition, operation, known),
        query: often(fc.constant(''), queryArbitrary(definition)),
        token: fc.constant(token),
        headers: fc.constant(headers),
        body: often(bodyArbitrary(definition, operation, known), fc.constant(undefined)),
      }),
    );
}

function pathArbitrary(
  definition: ResourceDefinition,
  operation: Operation,
  known: Known,
): fc.Arbitrary<string> {
  if (operation === 'list' || operation === 'create') return fc.constant(`/${definition.type}`);
  const own = known.ids.get(definition.type) ?? [];
  const id = fc.oneof(
    { weight: 4, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.constant('none') },
    { weight: 1, arbitrary: fc.constantFrom(...[...known.ids.values()].flat()) },
    {
      weight: 1,
      arbitrary: text.filter((value) => !/\p{Cs}/u.test(value)).map(encodeURIComponent),
    },
    { weight: 1, arbitrary: fc.constantFrom('%ED%A0%80', '%', '%00', '..', '%2F') },
  );
  const relationships = [...definition.toOne.keys(), ...definition.toMany.keys()];
  if (operation !== 'read' || relationships.length === 0)
    return id.map((value) => `/${definition.type}/${value}`);
  return fc
    .tuple(id, fc.option(fc.constantFrom(...relationships, 'nope'), { nil: undefined }))
    .map(([value, name]) => `/${definition.type}/${value}${name ? `/${name}` : ''}`);
}

function headersArbitrary(): fc.Arbitrary<Record<string, string>> {
  return fc.record(
    {
      'Content-Type': often(
        fc.constant('application/json'),
        fc.constantFrom(
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
        ),
      ),
      'X-Request-Id': fc.string({ maxLength: 200 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
      Accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
    },
    { requiredKeys: ['Content-Type'] },
  );
}

function queryArbitrary(definition: ResourceDefinition): fc.Arbitrary<string> {
  const names = [
    'id',
    ...definition.attributes.map((attribute) => attribute.name),
    ...definition.polymorphic.flatMap(({ name }) => [`${name}.type`, `${name}.id`]),
    'nope',
  ];
  const operators = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'null', 'like'];
  const key = fc.oneof(
    fc.constantFrom(...names).map((name) => `filter[${name}]`),
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(...operators))
      .map(([name, operator]) => `filter[${name}][${operator}]`),
    fc.constantFrom('order', 'limit', 'cursor', 'page', 'filter', 'filter[', '__proto__'),
  );
  const value = fc.oneof(
    text,
    fc.integer().map(String),
    fc.constantFrom('true', 'false', '2024-02-29', '2024-01-01T00:00:00Z', 'EUR', 'a,b', '1'),
    fc.constantFrom('2147483648', '-2147483649', '1,2147483648', '0000-01-01T00:00:00Z'),
    fc.constantFrom(...names).map((name) => `-${name}`),
  );
  return fc
    .array(fc.tuple(key, value), { minLength: 1, maxLength: 3 })
    .map((pairs) => new URLSearchParams(pairs).toString());
}

// Bodies near the declaration (required members mostly there, values mostly valid, now and
// then an unknown or read-only member) and, less often, any JSON or none at all.
function bodyArbitrary(
  definition: ResourceDefinition,
  operation: Operation,
  known: Known,
): fc.Arbitrary<string | undefined> {
  const mode = operation === 'update' ? 'patch' : 'create';
  const writable = definition.attributes.filter((attribute) => attribute.writable[mode]);
  const members = Object.fromEntries(
    writable.map((attribute) => [attribute.name, often(validValue(attribute, known), oddValue)]),
  );
  const required = writable.filter((a) => mode === 'create' && a.required).map((a) => a.name);
  const extra = fc.dictionary(
    fc.constantFrom('id', 'type', 'nope', 'created_at', '__proto__'),
    fc.oneof(fc.constant(definition.type), fc.jsonValue()),
    { maxKeys: 2 },
  );
  const data = fc
    .tuple(fc.record(members, { requiredKeys: required }), often(fc.constant({}), extra))
    .map(([members, extra]) => ({ ...extra, ...members }));
  return fc.oneof(
    { weight: 8, arbitrary: data.map((value) => JSON.stringify({ data: value })) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"data":', 'null', '[]', '{"data":[]}') },
  );
}

const oddValue: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.jsonValue(), oddText);

function validValue(attribute: AttributeDefinition, known: Known): fc.Arbitrary<unknown> {
  switch (attribute.type) {
    case 'string':
      if (attribute.reference) return fc.constantFrom(...known.targetIds(attribute), 'unknown');
      if (attribute.format === 'email') return fc.nat().map((n) => `fuzz-${n}@example.com`);
      return fc.string({ minLength: attribute.minLength ?? 1, maxLength: 30 });
    case 'integer':
      return fc.oneof(fc.integer({ min: -1, max: 100 }), fc.integer());
    case 'number':
      return fc.double();
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.constantFrom('2030-01-01', '1990-05-17', '2024-02-30', '0000-01-01', '0001-01-01');
    case 'time':
      return fc.constantFrom('2030-01-01T00:00:00Z', '0000-01-01T00:00:00Z');
    case 'enum':
      return fc.constantFrom(...attribute.values!);
    case 'ids':
      return fc.uniqueArray(fc.constantFrom(...known.targetIds(attribute), '\u0000'), {
        minLength: 1,
        maxLength: 3,
      });
  }
}
