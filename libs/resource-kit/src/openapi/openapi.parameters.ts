import type { ResourceDefinition } from '../metadata/definition';
import { FILTER_OPERATORS, fits } from '../query/filter.parser';
import { PAGE_PARAMETERS } from '../query/pagination';
import { isQueryable, QueryableMember, queryableMember } from '../query/queryable-members';
import type { JsonSchema } from '../validation/output.schema';
import { IndexBacking, indexBackingOf } from '../persistence/index-backing';
import type { OpenApiOptions } from './openapi.document';

/** The members filters and orders may name: `id`, readable stored attributes, reference parts. */
function queryableMembers(definition: ResourceDefinition): QueryableMember[] {
  const names = [
    'id',
    ...definition.attributes.filter(isQueryable).map((attribute) => attribute.name),
    ...definition.polymorphic.flatMap(({ name }) => [`${name}.type`, `${name}.id`]),
  ];
  return names.flatMap((name) => {
    const found = queryableMember(definition, name);
    return 'member' in found ? [found.member] : [];
  });
}

const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** References to a resource's filter parameters (components, shared by its operations). */
export function filterParameters(definition: ResourceDefinition): JsonSchema[] {
  return queryableMembers(definition).map((member) =>
    parameterRef(`${definition.type}.filter.${member.name}`),
  );
}

/** A reference to a resource's order parameter. */
export function orderParameter(definition: ResourceDefinition): JsonSchema {
  return parameterRef(`${definition.type}.order`);
}

/** The filter and order parameters of a resource, named for components.parameters. */
export function parameterComponents(definition: ResourceDefinition): [string, JsonSchema][] {
  const backing = indexBackingOf(definition);
  return [
    ...queryableMembers(definition).map((member): [string, JsonSchema] => [
      `${definition.type}.filter.${member.name}`,
      filterParameter(member, backing),
    ]),
    [`${definition.type}.order`, orderParameterOf(definition, backing)],
  ];
}

// Operators an index on the member's column serves; `ne` never does (it keeps nulls too).
const INDEXED_OPERATORS = new Set(['eq', 'lt', 'lte', 'gt', 'gte', 'in', 'null']);
const UNINDEXED =
  'allowed without an index, bounded by the statement timeout (503 when it runs out)';

function indexBackedOperators(
  member: QueryableMember,
  operators: readonly string[],
  backing: IndexBacking,
): string[] {
  return operators.filter((operator) =>
    operator === 'contains'
      ? backing.searches.has(member.property)
      : INDEXED_OPERATORS.has(operator) && backing.filters.has(member.property),
  );
}

/**
 * One `filter[member]` parameter per filterable member (deepObject: `filter[price_cents][gte]=100`),
 * each operator typed as the member's values parse; `filter[member]=v` is short for `[eq]`.
 */
function filterParameter(member: QueryableMember, backing: IndexBacking): JsonSchema {
  const value = valueSchema(member);
  const operators = FILTER_OPERATORS.filter((operator) => fits(operator, member.type));
  const indexed = indexBackedOperators(member, operators, backing);
  const served =
    indexed.length > 0
      ? `Index-backed: ${indexed.join(', ')}; the others are ${UNINDEXED}.`
      : `No index backs it: conditions are ${UNINDEXED}.`;
  return {
    name: `filter[${member.name}]`,
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `Conditions on ${member.name} (${member.type}), combined with AND: filter[${member.name}][operator]=value, or filter[${member.name}]=value for eq. Operators: ${operators.join(', ')}. ${served}`,
    'x-index-backed': indexed,
    // No condition by default: a documentation page would otherwise fill in every operator.
    example: {},
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        operators.map((operator) => [operator, operatorSchema(operator, value)]),
      ),
    },
  };
}

function operatorSchema(operator: string, value: JsonSchema): JsonSchema {
  if (operator === 'null') return { type: 'boolean', description: 'true: is null; false: is not' };
  if (operator === 'in')
    return { type: 'string', description: 'Comma-separated values, any of which matches' };
  if (operator === 'contains') return { ...value, description: 'Case-insensitive substring' };
  return value;
}

function valueSchema(member: QueryableMember): JsonSchema {
  switch (member.type) {
    case 'integer':
    case 'number':
    case 'boolean':
      return { type: member.type };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: [...member.values!] };
    default:
      return { type: 'string' };
  }
}

/** `order=name,-created_at` as a comma-separated array of the allowed orderings. */
function orderParameterOf(definition: ResourceDefinition, backing: IndexBacking): JsonSchema {
  const members = queryableMembers(definition);
  const keys = members.flatMap(({ name }) => [name, `-${name}`]);
  const indexed = members
    .filter((member) => backing.orders.has(member.property))
    .flatMap(({ name }) => [name, `-${name}`]);
  return {
    name: 'order',
    in: 'query',
    style: 'form',
    explode: false,
    description: `Sort keys, comma-separated, "-" for descending; id breaks ties. Default: created_at, then id. Index-backed as the only key: ${indexed.join(', ')}; other orders are ${UNINDEXED}.`,
    'x-index-backed': indexed,
    schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: keys } },
  };
}

const PAGE_TEXT: Readonly<Record<string, string>> = {
  cursor: 'The cursor of the previous page, to fetch the next one',
  limit: 'Page size',
  per_page: 'Page size',
  offset: 'How many resources to skip',
  page: 'Page number, from 1',
};

/** The pagination parameters of the service's one style. */
export function pageParameters(options: OpenApiOptions): JsonSchema[] {
  return PAGE_PARAMETERS[options.pagination].map((name) => {
    const sizes = ['limit', 'per_page'].includes(name);
    const schema =
      name === 'cursor'
        ? { type: 'string' }
        : {
            type: 'integer',
            minimum: name === 'offset' ? 0 : 1,
            ...(sizes && { maximum: options.pageSize.max, default: options.pageSize.default }),
          };
    return { name, in: 'query', description: PAGE_TEXT[name], schema };
  });
}
