import fc from 'fast-check';
import { Schema, typesOf, validValue } from './schema-arbitrary';

/** A body one member away from valid: `member` is what changed, `change` says how. */
export interface NearMiss {
  /** The JSON text, so that a member named `__proto__` stays a member. */
  readonly text: string;
  readonly member: string;
  readonly change: string;
}

interface Invalid {
  readonly value: unknown;
  readonly change: string;
}

const WRONG_TYPES: unknown[] = [null, true, 0, 1.5, 'x', [], {}, ['x']];
const BAD_FORMATS: Record<string, string[]> = {
  date: ['0000-01-01', '2023-02-29', '2024-1-05', '2024-13-01', '20240105', '2024-01-05T00:00Z'],
  'date-time': [
    ...['0000-01-01T00:00:00Z', '2024-01-05T10:20:30.5Z', '2024-01-05T10:20:30+00:00'],
    ...['2024-01-05T24:00:00Z', '2024-12-31T23:59:60Z', '2023-02-29T00:00:00Z'],
    ...['2024-01-05 10:20:30Z', '2024-01-05t10:20:30z', '2024-01-05'],
  ],
  email: ['not-an-email', 'a@b', '@example.com', 'a b@example.com', 'a@@example.com'],
};

/**
 * A valid body with one member of `data` made invalid: a wrong type, out of range, too long,
 * too short, a bad format, a character the store cannot hold, a required member missing, or
 * a member that is not allowed (`notAllowed`: the read-only and unknown names to try).
 * `valid` gives the valid bodies to start from (by default, any the schema accepts).
 */
export function nearMiss(
  body: Schema,
  notAllowed: readonly string[],
  valid: fc.Arbitrary<{ data: Record<string, unknown> }> = validValue(body) as never,
): fc.Arbitrary<NearMiss> {
  const data = body.properties!.data;
  const properties = data.properties ?? {};
  const changes = [
    ...Object.entries(properties).flatMap(([name, schema]) =>
      invalidValues(schema).map((invalid) => invalid.map((change) => ({ name, ...change }))),
    ),
    ...(data.required ?? []).map((name) =>
      fc.constant({ name, value: undefined, change: 'required member missing' }),
    ),
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom(...notAllowed),
          fc
            .string({ minLength: 1, maxLength: 8 })
            .filter((name) => !Object.hasOwn(properties, name)),
        ),
        fc.jsonValue(),
      )
      .map(([name, value]) => ({ name, value, change: 'member not allowed' })),
  ];
  return fc
    .tuple(valid, fc.oneof(...changes))
    .map(([{ data: before }, { name, value, change }]) => {
      const members = { ...before };
      delete members[name];
      if (value !== undefined) {
        Object.defineProperty(members, name, { value, enumerable: true, writable: true });
      }
      return { text: JSON.stringify({ data: members }), member: name, change };
    });
}

// Every way this schema refuses a value, each an arbitrary of such values.
function invalidValues(schema: Schema): fc.Arbitrary<Invalid>[] {
  const invalid = (change: string) => (value: unknown) => ({ value, change });
  const options: fc.Arbitrary<Invalid>[] = [];
  const allowed = 'const' in schema ? [schema.const] : schema.enum;
  if (allowed) {
    const other = fc.string().filter((value) => !allowed.includes(value));
    options.push(other.map(invalid('not an allowed value')));
  }
  const wrongTypes = schema.type ? WRONG_TYPES.filter((value) => !hasType(value, schema)) : [];
  if (wrongTypes.length > 0)
    options.push(fc.constantFrom(...wrongTypes).map(invalid('wrong type')));
  if (schema.maxLength !== undefined) {
    const lengths = { minLength: schema.maxLength + 1, maxLength: schema.maxLength + 3 };
    options.push(fc.string(lengths).map(invalid('too long')));
  }
  if (schema.minLength) {
    options.push(fc.string({ maxLength: schema.minLength - 1 }).map(invalid('too short')));
  }
  if (schema.pattern !== undefined) {
    const text = validValue({ ...schema, type: 'string' }) as fc.Arbitrary<string>;
    const character = fc.constantFrom('\u0000', '\ud800', '\udfff');
    const spliced = fc
      .tuple(text, character, fc.nat())
      .map(([value, c, at]) => splice(value, c, at));
    options.push(spliced.map(invalid('a character the store cannot hold')));
  }
  if (schema.format !== undefined) {
    options.push(fc.constantFrom(...BAD_FORMATS[schema.format]).map(invalid('bad format')));
  }
  const step = schema.type && typesOf(schema).includes('integer') ? 1 : 0.5;
  if (schema.minimum !== undefined) {
    options.push(fc.constant(schema.minimum - step).map(invalid('below the minimum')));
  }
  if (schema.maximum !== undefined) {
    options.push(fc.constant(schema.maximum + step).map(invalid('above the maximum')));
  }
  if (schema.items) options.push(...invalidArrays(schema));
  return options;
}

function invalidArrays(schema: Schema): fc.Arbitrary<Invalid>[] {
  const items = schema.items!;
  const options = invalidValues(items).map((item) =>
    item.map(({ value, change }) => ({ value: [value], change: `an item: ${change}` })),
  );
  if (schema.minItems) options.push(fc.constant({ value: [], change: 'too few items' }));
  if (schema.uniqueItems) {
    options.push(validValue(items).map((item) => ({ value: [item, item], change: 'repeated' })));
  }
  if (schema.maxItems !== undefined) {
    const count = schema.maxItems + 1;
    options.push(
      fc
        .uniqueArray(validValue(items), { minLength: count, maxLength: count })
        .map((value) => ({ value, change: 'too many items' })),
    );
  }
  return options;
}

function hasType(value: unknown, schema: Schema): boolean {
  return typesOf(schema).some((type) => {
    if (type === 'integer') return Number.isInteger(value);
    if (type === 'null') return value === null;
    if (type === 'array') return Array.isArray(value);
    if (type === 'object')
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    return typeof value === type;
  });
}

// Inserts a character between two code points (never inside a surrogate pair).
function splice(value: string, character: string, at: number): string {
  const points = [...value];
  const index = at % (points.length + 1);
  return [...points.slice(0, index), character, ...points.slice(index)].join('');
}
