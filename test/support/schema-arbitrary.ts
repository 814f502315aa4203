import fc from 'fast-check';

/** The subset of JSON Schema the kit's input schemas use; anything else fails loudly. */
export interface Schema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

const KNOWN = new Set<string>([
  ...['type', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'items'],
  ...['minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'pattern', 'format'],
  ...['minimum', 'maximum', 'description', 'example', 'examples', 'deprecated'],
]);

// Any code point but a surrogate (fast-check's own 'binary' unit takes seconds to build).
const CODE_POINT = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((point) => point < 0xd800 || point > 0xdfff)
  .map((point) => String.fromCodePoint(point));

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  date: dates().map((date) => date.toISOString().slice(0, 10)),
  'date-time': dates().map((date) => `${date.toISOString().slice(0, 19)}Z`),
  email: fc.emailAddress(),
};

/** Values the schema accepts, built from its keywords (boundaries included). */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  const unknown = Object.keys(schema).filter((keyword) => !KNOWN.has(keyword));
  if (unknown.length > 0) throw new Error(`the generator does not know ${unknown.join(', ')}`);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  return fc.oneof(...typesOf(schema).map((type) => valueOfType(type, schema)));
}

function valueOfType(type: string, schema: Schema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const range = { min: schema.minimum, max: schema.maximum };
      return fc.oneof(fc.integer(range), fc.constantFrom(range.min ?? 0, range.max ?? 0));
    }
    case 'number':
      return fc.double({ min: schema.minimum, max: schema.maximum, noNaN: true }).filter(isFinite);
    case 'string':
      return stringValue(schema);
    case 'array':
      return (schema.uniqueItems ? fc.uniqueArray : fc.array)(validValue(schema.items ?? {}), {
        minLength: schema.minItems,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return objectValue(schema);
    default:
      throw new Error(`the generator does not know the type ${type}`);
  }
}

function stringValue(schema: Schema): fc.Arbitrary<string> {
  const lengths = { minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 50 };
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  // Any code point, now and then exactly as many as allowed; one the pattern refuses on its
  // own (the kit's text pattern is one repeated class) becomes an "x".
  const text = fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ unit: CODE_POINT, ...lengths }) },
      {
        weight: 1,
        arbitrary: fc.string({ unit: CODE_POINT, ...lengths, minLength: lengths.maxLength }),
      },
    )
    .map((value) => [...value].map((c) => (pattern?.test(c) === false ? 'x' : c)).join(''));
  return (schema.format ? FORMATS[schema.format] : text).filter(
    (value) =>
      (pattern?.test(value) ?? true) &&
      [...value].length >= lengths.minLength &&
      [...value].length <= lengths.maxLength,
  );
}

function objectValue(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  return fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [name, validValue(value)]),
    ),
    { requiredKeys: schema.required ?? [] },
  );
}

export function typesOf(schema: Schema): string[] {
  if (schema.type === undefined) throw new Error('the generator needs a type');
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function dates(): fc.Arbitrary<Date> {
  const [min, max] = [new Date('0001-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59Z')];
  return fc.date({ min, max, noInvalidDate: true });
}
