import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';
import { formatDate, formatTime } from '../validation/formats';

export type WireResource = Record<string, unknown>;

interface Field {
  readonly name: string;
  readonly property: string;
  readonly format: (value: unknown) => unknown;
}

interface Plan {
  readonly fields: readonly Field[];
  readonly references: ResourceDefinition['polymorphic'];
}

// Built once per definition and response kind: the shown members and their formatters.
const plans = new WeakMap<ResourceDefinition, { created: Plan; other: Plan }>();

/** The wire form of one entity: type, id, then every attribute the response may show. */
export function serializeResource(
  definition: ResourceDefinition,
  entity: object,
  options: { created: boolean },
): WireResource {
  const { fields, references } = planOf(definition)[options.created ? 'created' : 'other'];
  const record = entity as Record<string, unknown>;
  const wire: WireResource = { type: definition.type, id: record.id };
  for (const { name, property, format } of fields) {
    const value = record[property];
    wire[name] = value === null || value === undefined ? null : format(value);
  }
  for (const reference of references) {
    const type = record[reference.typeProperty];
    const id = record[reference.idProperty];
    wire[reference.name] = type == null || id == null ? null : { type, id };
  }
  return wire;
}

function planOf(definition: ResourceDefinition) {
  let plan = plans.get(definition);
  if (!plan) {
    const fieldsFor = (created: boolean) =>
      definition.attributes
        .filter((a) => a.output === 'always' || (a.output === 'on-create' && created))
        .map((a): Field => ({ name: a.name, property: a.property, format: formatterOf(a) }));
    const { polymorphic: references } = definition;
    plan = {
      created: { fields: fieldsFor(true), references },
      other: { fields: fieldsFor(false), references },
    };
    plans.set(definition, plan);
  }
  return plan;
}

// Drivers differ (Date or text for times, 0/1 or booleans on SQLite); the wire form does not.
function formatterOf(attribute: AttributeDefinition): (value: unknown) => unknown {
  switch (attribute.type) {
    case 'time':
      return (value) =>
        value instanceof Date || typeof value === 'string' ? formatTime(value) : value;
    case 'date':
      return (value) =>
        value instanceof Date || typeof value === 'string' ? formatDate(value) : value;
    case 'boolean':
      return (value) => (value === 1 || value === 0 ? value === 1 : value);
    default:
      return (value) => value;
  }
}
