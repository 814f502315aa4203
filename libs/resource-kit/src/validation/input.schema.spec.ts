import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { Attribute } from '../decorators/attribute.decorator';
import { Polymorphic } from '../decorators/polymorphic.decorator';
import type { PolymorphicReference } from '../decorators/polymorphic.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { ToOne } from '../decorators/to-one.decorator';
import { readResourceDefinition } from '../metadata/definition.reader';
import { buildOpenApiDocument } from '../openapi/openapi.document';
import {
  DATE_PATTERN,
  isCalendarDate,
  isStorableText,
  isUtcTime,
  STORABLE_TEXT_PATTERN,
  TIME_PATTERN,
} from './formats';
import { inputSchema } from './input.schema';

@Resource({ type: 'owners', access: { read: 'public' } })
class Owner extends ResourceEntity {}

@Resource({ type: 'parts', access: { create: 'public', update: 'public' } })
class Part extends ResourceEntity {
  @Attribute({ type: 'string', format: 'email', maxLength: 254 }) contact!: string;
  @Attribute({ type: 'string', minLength: 2, optional: true, nullable: true }) label!: string;
  @Attribute({ type: 'integer' }) count!: number;
  @Attribute({ type: 'integer', min: 1, max: 9, writable: 'patch' }) grade!: number;
  @Attribute({ type: 'number', min: 0, optional: true }) weight!: number;
  @Attribute({ type: 'boolean', writable: 'create', optional: true }) sealed!: boolean;
  @Attribute({ type: 'enum', values: ['a', 'b'], optional: true, nullable: true }) kind!: string;
  @Attribute({ type: 'date', optional: true }) madeOn!: string;
  @Attribute({ type: 'time', optional: true }) checkedAt!: Date;
  @Attribute({ type: 'integer', writable: false }) total!: number;
  @Attribute({ type: 'ids', target: () => Owner, writable: 'create', column: false })
  ownerIds!: string[];
  @ToOne(() => Owner, { optional: true }) ownerId!: string;
  @Polymorphic() subject!: PolymorphicReference;
}

const parts = readResourceDefinition(Part);
const text = { pattern: STORABLE_TEXT_PATTERN };
const members = {
  contact: { type: 'string', maxLength: 254, ...text, format: 'email' },
  label: { type: ['string', 'null'], maxLength: 255, minLength: 2, ...text },
  count: { type: 'integer', minimum: -2_147_483_648, maximum: 2_147_483_647 },
  grade: { type: 'integer', minimum: 1, maximum: 9 },
  weight: { type: 'number', minimum: 0 },
  sealed: { type: 'boolean' },
  kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
  made_on: { type: 'string', format: 'date', pattern: DATE_PATTERN },
  checked_at: { type: 'string', format: 'date-time', pattern: TIME_PATTERN },
  owner_ids: {
    type: 'array',
    items: { type: 'string', maxLength: 36, ...text },
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
  },
  owner_id: { type: 'string', maxLength: 36, ...text },
};
const without = (names: string[]) =>
  Object.fromEntries(Object.entries(members).filter(([name]) => !names.includes(name)));
const body = (data: object) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: { type: 'object', additionalProperties: false, ...data } },
});

describe('inputSchema', () => {
  it('holds the writable members of a create, their rules, and those required', () => {
    expect(inputSchema(parts, 'create')).toEqual(
      body({
        required: ['contact', 'count', 'owner_ids'],
        properties: { type: { const: 'parts' }, ...without(['grade']) },
      }),
    );
  });

  it('holds the members a PATCH may change, none required, and the id', () => {
    const patched = without(['sealed', 'owner_ids']);
    expect(inputSchema(parts, 'patch')).toEqual(
      body({ properties: { type: { const: 'parts' }, id: { type: 'string' }, ...patched } }),
    );
  });

  it('is what the OpenAPI document publishes as the request bodies, annotations aside', () => {
    const document = buildOpenApiDocument([parts, readResourceDefinition(Owner)], {
      title: 't',
      version: '1',
      basePath: '/',
      errorKey: 'error',
      pagination: 'cursor',
      pageSize: { default: 10, max: 100 },
    }) as { components: { schemas: Record<string, unknown> } };
    const published = (name: string) => withoutAnnotations(document.components.schemas[name]);
    expect(published('parts.create')).toEqual(inputSchema(parts, 'create'));
    expect(published('parts.patch')).toEqual(inputSchema(parts, 'patch'));
  });
});

// Descriptions and examples document a schema; they validate nothing.
function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'description' && key !== 'example')
      .map(([key, value]) => [
        key,
        // Member names are not keywords: a member may be called `description`.
        key === 'properties'
          ? Object.fromEntries(
              Object.entries(value as object).map(([name, member]) => [
                name,
                withoutAnnotations(member),
              ]),
            )
          : withoutAnnotations(value),
      ]),
  );
}

// The schema states the wire forms as pattern + standard format; the query filters check them
// with the kit's own predicates. Both must mean the same.
describe('the wire forms of the input schema', () => {
  const ajv = new Ajv2020({ strict: true });
  addFormats(ajv, ['date', 'date-time']);
  const schemaDate = ajv.compile({ type: 'string', format: 'date', pattern: DATE_PATTERN });
  const schemaTime = ajv.compile({ type: 'string', format: 'date-time', pattern: TIME_PATTERN });
  const schemaText = ajv.compile({ type: 'string', pattern: STORABLE_TEXT_PATTERN });
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const day = fc
    .tuple(fc.integer({ min: 0, max: 10_000 }), two(13), two(32))
    .map(([year, month, date]) => `${String(year).padStart(4, '0')}-${month}-${date}`);
  const edit = fc.constantFrom('', '.5', '+00:00', 'z', ' ');

  it('a date is valid for the schema exactly when it is for the filters', () => {
    fc.assert(
      fc.property(fc.oneof(day, fc.string()), (value) => {
        expect([value, schemaDate(value)]).toEqual([value, isCalendarDate(value)]);
      }),
    );
  });

  it('a time is valid for the schema exactly when it is for the filters', () => {
    const time = fc
      .tuple(day, two(25), two(61), two(61), edit)
      .map(([date, h, m, s, end]) => `${date}T${h}:${m}:${s}${end === ' ' ? '' : 'Z'}${end}`);
    fc.assert(
      fc.property(fc.oneof(time, fc.string()), (value) => {
        expect([value, schemaTime(value)]).toEqual([value, isUtcTime(value)]);
      }),
    );
  });

  it('text is valid for the schema exactly when the store can hold it', () => {
    const unit = fc.constantFrom('a', '\u0000', '\ud800', '\udc00', '😀', 'é');
    fc.assert(
      fc.property(fc.string({ unit }), (value) => {
        expect([value, schemaText(value)]).toEqual([value, isStorableText(value)]);
      }),
    );
  });
});
