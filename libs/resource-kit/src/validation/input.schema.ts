import { ID_COLUMN } from '../metadata/definition';
import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';
import { DATE_PATTERN, INT32, STORABLE_TEXT_PATTERN, TIME_PATTERN } from './formats';
import { attributeSchema, JsonSchema } from './output.schema';

export type InputMode = 'create' | 'patch';

/** How many ids an `ids` member holds. */
export const IDS = { minItems: 1, maxItems: 100 } as const;

/**
 * The JSON Schema (2020-12) of a write's request body, `{data: {...}}`: the OpenAPI document
 * publishes it and the route validator is compiled from it, so the two cannot disagree.
 * What it cannot say is checked beside it: a PATCH's `data.id` must equal the path id, and
 * references must name resources that exist and that the caller can see.
 */
export function inputSchema(definition: ResourceDefinition, mode: InputMode): JsonSchema {
  const writable = definition.attributes.filter((attribute) => attribute.writable[mode]);
  const required = mode === 'create' ? writable.filter((a) => a.required).map((a) => a.name) : [];
  const data = {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 && { required }),
    properties: {
      type: { const: definition.type },
      ...(mode === 'patch' && { id: { type: 'string' } }),
      ...Object.fromEntries(
        writable.map((attribute) => [attribute.name, inputAttributeSchema(attribute)]),
      ),
    },
  };
  return { type: 'object', additionalProperties: false, required: ['data'], properties: { data } };
}

/** An attribute's wire schema, narrowed to what the store can hold. */
function inputAttributeSchema(attribute: AttributeDefinition): JsonSchema {
  const schema = attributeSchema(attribute);
  switch (attribute.type) {
    case 'string':
      return {
        ...schema,
        pattern: STORABLE_TEXT_PATTERN,
        ...(attribute.format && { format: attribute.format }),
      };
    case 'date':
      return { ...schema, pattern: DATE_PATTERN };
    case 'time':
      return { ...schema, pattern: TIME_PATTERN };
    case 'integer':
      // 32-bit columns: larger values are refused as input, not failed in SQL.
      return {
        ...schema,
        minimum: attribute.min ?? INT32.min,
        maximum: attribute.max ?? INT32.max,
      };
    case 'ids':
      return {
        type: 'array',
        items: { type: 'string', maxLength: ID_COLUMN.length, pattern: STORABLE_TEXT_PATTERN },
        minItems: IDS.minItems,
        maxItems: IDS.maxItems,
        uniqueItems: true,
      };
    default:
      return schema;
  }
}
