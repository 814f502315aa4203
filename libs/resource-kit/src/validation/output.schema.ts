import type {
  AttributeDefinition,
  PolymorphicDefinition,
  ResourceDefinition,
} from '../metadata/definition';

export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema (2020-12) of a resource as responses show it; the output validator
 * compiles it, and the OpenAPI document publishes it.
 */
export function outputSchema(
  definition: ResourceDefinition,
  options: { created: boolean },
): JsonSchema {
  const shown = definition.attributes.filter(
    (a) => a.output === 'always' || (a.output === 'on-create' && options.created),
  );
  return {
    type: 'object',
    additionalProperties: false,
    required: [
      'type',
      'id',
      // A member some callers may not read is absent from their answers (SPEC 1.16).
      ...shown.filter((a) => !a.readableBy).map((a) => a.name),
      ...definition.polymorphic.map((p) => p.name),
    ],
    properties: {
      type: { const: definition.type },
      id: { type: 'string', minLength: 1 },
      ...Object.fromEntries(shown.map((a) => [a.name, attributeSchema(a)])),
      ...Object.fromEntries(definition.polymorphic.map((p) => [p.name, polymorphicSchema(p)])),
    },
  };
}

/** `{type, id}`, exactly those members (or null when the reference is nullable). */
function polymorphicSchema(reference: PolymorphicDefinition): JsonSchema {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'id'],
    properties: { type: { type: 'string', minLength: 1 }, id: { type: 'string', minLength: 1 } },
  };
  return reference.nullable ? { oneOf: [schema, { type: 'null' }] } : schema;
}

export function attributeSchema(attribute: AttributeDefinition): JsonSchema {
  const schema = valueSchema(attribute);
  if (!attribute.nullable) return schema;
  return attribute.type === 'enum'
    ? { ...schema, type: ['string', 'null'], enum: [...attribute.values!, null] }
    : { ...schema, type: [schema.type, 'null'] };
}

function valueSchema(attribute: AttributeDefinition): JsonSchema {
  switch (attribute.type) {
    case 'string':
      return {
        type: 'string',
        maxLength: attribute.maxLength,
        ...(attribute.minLength && { minLength: attribute.minLength }),
      };
    case 'enum':
      return { type: 'string', enum: [...attribute.values!] };
    case 'integer':
      return { type: 'integer', ...range(attribute) };
    case 'number':
      return { type: 'number', ...range(attribute) };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'ids':
      return { type: 'array', items: { type: 'string' } };
  }
}

function range(attribute: AttributeDefinition) {
  return {
    ...(attribute.min !== undefined && { minimum: attribute.min }),
    ...(attribute.max !== undefined && { maximum: attribute.max }),
  };
}
