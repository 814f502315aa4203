import { randomUUID } from 'node:crypto';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { KitError, ResourceDefinition, ResourceRegistry } from '@app/resource-kit';
import { parseInput } from '@app/resource-kit/validation/input.parser';
import { checksum } from './support/database-checksum';
import { Schema, validValue } from './support/schema-arbitrary';
import { nearMiss } from './support/schema-near-miss';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// Property: the request body schemas /openapi.json publishes and the validator guarding the
// routes agree. A body valid per the published schema passes the validator; a body one member
// away from valid is refused by both, and over HTTP is a 400 that changes nothing.
// INPUT_SEED replays a failure (fast-check prints the seed); INPUT_RUNS runs longer.
const SEED = Number(process.env.INPUT_SEED ?? 20_261_123);
const RUNS = Number(process.env.INPUT_RUNS ?? 50);
const PATH_ID = 'the-id-in-the-path';
// What is checked beyond the schema, after it: references, and the shop's own rules.
const BEYOND_SCHEMA = [
  / refers to no \w+ resource/,
  /must come from one cart/,
  /before today/,
  // Where a webhook endpoint may point depends on the configuration and on DNS.
  /^data\.url /,
  /^data\.subject_type must be one of /,
];

/** One write route: its resource, mode, and the body schema the document publishes for it. */
interface Write {
  definition: ResourceDefinition;
  mode: 'create' | 'patch';
  schema: Schema;
  published: ValidateFunction;
  notAllowed: string[];
}

describe('one truth for input: the published schema and the route validator', () => {
  let service: TestApp;
  let writes: Write[];

  beforeAll(async () => {
    service = await startTestApp();
    const { body: document } = await request(service.http).get('/openapi.json').expect(200);
    const definitions = service.app.get(ResourceRegistry).definitions();
    writes = definitions.flatMap((definition) => writesOf(definition, document));
  });
  afterAll(() => service.close());

  it('every write route of every resource publishes its body schema', () => {
    const routes = writes.map(({ definition, mode }) => `${mode} ${definition.type}`);
    const declared = service.app
      .get(ResourceRegistry)
      .definitions()
      .flatMap(({ type, operations }) => [
        ...(operations.has('create') ? [`create ${type}`] : []),
        ...(operations.has('update') ? [`patch ${type}`] : []),
      ]);
    expect(routes).toEqual(declared);
    expect(routes.length).toBeGreaterThan(0);
  });

  it('a body valid per the published schema passes the route validator', () => {
    for (const write of writes) {
      fc.assert(
        fc.property(validBody(write, PATH_ID), (body) => {
          const text = JSON.stringify(body);
          const shown = `${write.mode} ${write.definition.type}: ${text}`;
          expect([shown, write.published(JSON.parse(text))]).toEqual([shown, true]);
          expect([shown, problemsOf(write, text, PATH_ID)]).toEqual([shown, []]);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
  });

  it('a body one member away from valid is refused by both, naming the member', () => {
    for (const write of writes) {
      fc.assert(
        fc.property(nearMissBody(write, PATH_ID), ({ text, member, change }) => {
          const shown = `${write.mode} ${write.definition.type}, ${member} ${change}: ${text}`;
          expect([shown, write.published(JSON.parse(text))]).toEqual([shown, false]);
          const problems = problemsOf(write, text, PATH_ID);
          const named = problems.some((problem) => problem.startsWith(`data.${member} `));
          expect([shown, problems, named]).toEqual([shown, problems, true]);
        }),
        { seed: SEED, numRuns: RUNS * 2 },
      );
    }
  });

  describe('over HTTP', () => {
    let ids: Map<string, string>;
    let dataSource: DataSource;
    beforeAll(async () => {
      ids = await seedOneOfEach(service);
      dataSource = service.app.get(DataSource);
    });

    it('a refused body is 400 with the validator\u2019s messages and changes nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...writes)
            .chain((write) =>
              nearMissBody(write, ids.get(write.definition.type)!).map((miss) => ({ write, miss })),
            ),
          async ({ write, miss }) => {
            const before = await checksum(dataSource);
            const id = ids.get(write.definition.type)!;
            const response = await send(service, write, id, miss.text);
            const shown = `${routeOf(write, id)} ${miss.text}`;
            expect([shown, response.status, response.body]).toEqual([
              shown,
              400,
              { error: problemsOf(write, miss.text, id) },
            ]);
            expect([shown, await checksum(dataSource)]).toEqual([shown, before]);
          },
        ),
        { seed: SEED, numRuns: Math.ceil(RUNS / 3) },
      );
    });

    it('a valid body passes the validator: any 400 is a check beyond the schema', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...writes).chain((write) =>
            validBody(write, ids.get(write.definition.type)!).map((body) => ({
              write,
              text: JSON.stringify(body),
            })),
          ),
          async ({ write, text }) => {
            const id = ids.get(write.definition.type)!;
            const response = await send(service, write, id, text);
            const shown = `${routeOf(write, id)} ${text} -> ${response.text}`;
            const errors = (response.body.error ?? []) as string[];
            const beyond = errors.every((e) => BEYOND_SCHEMA.some((rule) => rule.test(e)));
            expect([shown, response.status < 500, response.status !== 400 || beyond]).toEqual([
              shown,
              true,
              true,
            ]);
          },
        ),
        { seed: SEED, numRuns: Math.ceil(RUNS / 5) },
      );
    });
  });
});

function writesOf(definition: ResourceDefinition, document: OpenApiDocument): Write[] {
  const { type } = definition;
  const routes = [
    { mode: 'create' as const, operation: document.paths[`/${type}`]?.post },
    { mode: 'patch' as const, operation: document.paths[`/${type}/{id}`]?.patch },
  ];
  return routes.flatMap(({ mode, operation }) => {
    if (!operation) return [];
    const schema = resolve(document, operation.requestBody.content['application/json'].schema);
    const members = Object.keys(schema.properties!.data.properties ?? {});
    const names = [
      'id',
      ...definition.attributes.map(({ name }) => name),
      ...definition.polymorphic.map(({ name }) => name),
      '__proto__',
    ];
    const published = independentAjv().compile(schema);
    const notAllowed = names.filter((name) => !members.includes(name));
    return [{ definition, mode, schema, published, notAllowed }];
  });
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { requestBody: { content: Record<string, { schema: Schema & { $ref?: string } }> } }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

function resolve(document: OpenApiDocument, schema: Schema & { $ref?: string }): Schema {
  const prefix = '#/components/schemas/';
  if (!schema.$ref) return schema;
  expect(schema.$ref.startsWith(prefix)).toBe(true);
  return document.components.schemas[schema.$ref.slice(prefix.length)];
}

// A consumer's validator of the document: JSON Schema 2020-12 (OpenAPI 3.1), every standard
// format of ajv-formats, and OpenAPI's own annotation keywords.
function independentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addVocabulary(['example', 'xml', 'externalDocs']);
  return ajv;
}

// A PATCH's data.id, when the schema lets it be, is the path's (the one rule beyond it).
function validBody(write: Write, pathId: string): fc.Arbitrary<{ data: Record<string, unknown> }> {
  return validValue(write.schema).map((body) => {
    const { data } = body as { data: Record<string, unknown> };
    return { data: 'id' in data ? { ...data, id: pathId } : data };
  });
}

function nearMissBody(write: Write, pathId: string) {
  return nearMiss(write.schema, write.notAllowed, validBody(write, pathId));
}

function problemsOf(write: Write, text: string, pathId: string): readonly string[] {
  try {
    parseInput(JSON.parse(text), write.definition, write.mode, pathId);
    return [];
  } catch (error) {
    if (error instanceof KitError && error.code === 'invalid_input') return error.messages;
    throw error;
  }
}

function routeOf(write: Write, id: string) {
  return write.mode === 'patch'
    ? `PATCH /${write.definition.type}/${id}`
    : `POST /${write.definition.type}`;
}

function send(service: TestApp, write: Write, id: string, text: string) {
  const [method, path] = routeOf(write, id).split(' ');
  return request(service.http)
    [method === 'PATCH' ? 'patch' : 'post'](path)
    .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
    .set('Content-Type', 'application/json')
    .send(text);
}

// A row of every resource a PATCH can address: a product, a customer with a cart item, an order.
async function seedOneOfEach(service: TestApp): Promise<Map<string, string>> {
  const shop = new ShopClient(service.http);
  const admin = shop.as(ADMIN_TOKEN);
  const product = await admin.post('/products', { name: 'Kettle', price_cents: 100, stock: 99 });
  const { token, user } = await shop.customer(`input-${randomUUID().slice(0, 8)}@example.com`);
  const customer = shop.as(token);
  for (const quantity of [1, 2]) {
    const item = await customer.post('/cart_items', {
      cart_id: user.id,
      product_id: product.body.data.id,
      quantity,
    });
    if (quantity === 1) await customer.post('/orders', { cart_item_ids: [item.body.data.id] });
  }
  const ids = new Map<string, string>();
  for (const { type } of service.app.get(ResourceRegistry).definitions()) {
    const { body } = await admin.get(`/${type}`).expect(200);
    if (body.data.length > 0) ids.set(type, (body.data as { id: string }[])[0].id);
  }
  return ids;
}
