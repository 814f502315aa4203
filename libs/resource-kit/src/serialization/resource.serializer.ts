import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';
import { formatDate, formatTime } from '../validation/formats';

type WireResource = Record<string, unknown>;

/** The wire form of one entity: type, id, then every attribute the response may show. */
export function serializeResource(
  definition: ResourceDefinition,
  entity: object,
  options: { created: boolean },
): WireResource {
  const record = entity as Record<string, unknown>;
  const wire: WireResource = { type: definition.type, id: record.id };
  for (const attribute of definition.attributes) {
    if (attribute.output === 'never' || (attribute.output === 'on-create' && !options.created))
      continue;
    wire[attribute.name] = wireValue(attribute, record[attribute.property]);
  }
  for (const reference of definition.polymorphic) {
    const type = record[reference.typeProperty];
    const id = record[reference.idProperty];
    wire[reference.name] = type == null || id == null ? null : { type, id };
  }
  return wire;
}

// Drivers differ (Date or text for times, 0/1 or booleans on SQLite); the wire form does not.
function wireValue(attribute: AttributeDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (attribute.type) {
    case 'time':
      return value instanceof Date || typeof value === 'string' ? formatTime(value) : value;
    case 'date':
      return value instanceof Date || typeof value === 'string' ? formatDate(value) : value;
    case 'boolean':
      return value === 1 || value === 0 ? value === 1 : value;
    default:
      return value;
  }
}
