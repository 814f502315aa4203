import type { JsonSchema } from '../validation/output.schema';

const DAY = '2026-01-15';
const ID = '0194b3c2-7d5e-7a10-8f3b-2c4d6e8f0a1b';

/**
 * A plausible value of a JSON schema, the same on every run: the first enum value, a number
 * in range, a string of an allowed length (named after its member), a date, an id. Every
 * component schema of the document carries one as its `example`.
 * @example exampleOf({ type: 'integer', minimum: 1, maximum: 99 }, 'quantity') // 1
 */
export function exampleOf(schema: JsonSchema, member = ''): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf as JsonSchema[];
    return exampleOf(branches.find((branch) => branch.type !== 'null') ?? branches[0], member);
  }
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  switch (types.find((type) => type !== 'null')) {
    case 'object':
      return objectExample(schema);
    case 'array':
      return [exampleOf((schema.items ?? {}) as JsonSchema, member)];
    case 'string':
      return stringExample(schema, member);
    case 'integer':
      return numberExample(schema, member.endsWith('_cents') ? 1250 : 1);
    case 'number':
      return numberExample(schema, 1.5);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function objectExample(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, exampleOf(property, name)]),
  );
}

function numberExample(schema: JsonSchema, preferred: number): number {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  const atLeast = minimum === undefined ? preferred : Math.max(preferred, minimum);
  return maximum === undefined ? atLeast : Math.min(atLeast, maximum);
}

function stringExample(schema: JsonSchema, member: string): string {
  switch (schema.format) {
    case 'date':
      return DAY;
    case 'date-time':
      return `${DAY}T09:30:00Z`;
    case 'email':
      return 'ada@example.com';
  }
  if (member === 'id' || member.endsWith('_id') || member.endsWith('Id')) return ID;
  const { minLength = 0, maxLength = Infinity } = schema as {
    minLength?: number;
    maxLength?: number;
  };
  const words = member ? `${member.replace(/_/g, ' ')} text` : 'text';
  return words.padEnd(minLength, '.').slice(0, maxLength);
}
