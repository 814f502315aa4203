import type { ResourceDefinition } from '../metadata/definition';
import {
  DefinitionOf,
  filteredMember,
  FILTER_OPERATORS,
  fits,
  MAX_HOPS,
  RelatedStep,
  stepOf,
} from '../query/filter.parser';
import { PAGE_PARAMETERS } from '../query/pagination';
import { isQueryable, QueryableMember, queryableMember } from '../query/queryable-members';
import type { JsonSchema } from '../validation/output.schema';
import {
  IndexBacking,
  indexBackingOf,
  ownerPathIndexed,
  servedThrough,
  servesOperator,
} from '../persistence/index-backing';
import { RESTRICTED_TO } from './openapi.descriptions';
import type { OpenApiOptions } from './openapi.options';

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

/** A filter parameter's member: one of the resource's own, or a related one's (`through`). */
interface FilteredMember {
  readonly name: string;
  readonly member: QueryableMember;
  readonly through?: readonly RelatedStep[];
}

/** The members a resource's filters name: its own, then those of related resources (SPEC 1.15). */
function filteredMembers(
  definition: ResourceDefinition,
  definitionOf: DefinitionOf,
): FilteredMember[] {
  const own = queryableMembers(definition).map((member) => ({ name: member.name, member }));
  return [...own, ...relatedNames(definition, definitionOf, [], '')].flatMap((item) => {
    if (typeof item !== 'string') return [item];
    const found = filteredMember(definition, item, definitionOf);
    return 'member' in found ? [{ name: item, ...found }] : [];
  });
}

// `order_items.product_id`, `order_items.product.currency`, ...: every attribute of every
// readable resource within reach, except through a relationship straight back.
function relatedNames(
  from: ResourceDefinition,
  definitionOf: DefinitionOf,
  through: readonly RelatedStep[],
  prefix: string,
): string[] {
  const previous = through[through.length - 1];
  return [...from.toOne.keys(), ...from.toMany.keys()].flatMap((relationship) => {
    const step = stepOf(from, relationship, definitionOf);
    if ('problem' in step || (previous && isReverse(previous, step))) return [];
    const path = `${prefix}${relationship}`;
    const members = ['id', ...step.target.attributes.filter(isQueryable).map((a) => a.name)];
    return [
      ...members.map((member) => `${path}.${member}`),
      ...(through.length + 1 < MAX_HOPS
        ? relatedNames(step.target, definitionOf, [...through, step], `${path}.`)
        : []),
    ];
  });
}

function isReverse(previous: RelatedStep, step: RelatedStep): boolean {
  return step.near === previous.far && step.far === previous.near;
}

const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** References to a resource's filter parameters (components, shared by its operations). */
export function filterParameters(
  definition: ResourceDefinition,
  definitionOf: DefinitionOf,
): JsonSchema[] {
  return filteredMembers(definition, definitionOf).map(({ name }) =>
    parameterRef(`${definition.type}.filter.${name}`),
  );
}

/** A reference to a resource's order parameter. */
export function orderParameter(definition: ResourceDefinition): JsonSchema {
  return parameterRef(`${definition.type}.order`);
}

/** The filter and order parameters of a resource, named for components.parameters. */
export function parameterComponents(
  definition: ResourceDefinition,
  definitionOf: DefinitionOf,
): [string, JsonSchema][] {
  const backing = indexBackingOf(definition);
  const ownRows = listsOwnRowsByIndex(definition, definitionOf) ? ` ${OWN_ROWS}` : '';
  return [
    ...filteredMembers(definition, definitionOf).map(
      ({ name, member, through }): [string, JsonSchema] => {
        const parameter = filterParameter(
          name,
          member,
          through ? servedThrough(backing, through) : backing,
        );
        return [
          `${definition.type}.filter.${name}`,
          { ...parameter, description: `${parameter.description as string}${ownRows}` },
        ];
      },
    ),
    [`${definition.type}.order`, orderParameterOf(definition, backing, ownRows)],
  ];
}

// As ResourceReads judges a list (SPEC 1.6): confined to a non-administrator's own rows by an
// index, it is not costly.
function listsOwnRowsByIndex(definition: ResourceDefinition, definitionOf: DefinitionOf): boolean {
  return definition.access.get('list') !== 'public' && ownerPathIndexed(definition, definitionOf);
}

const RELATED =
  'Matches the rows with at least one related row that meets it and that the caller may read; each row appears once.';
const COSTLY =
  'costly: no index serves them, so at most a few run at once per instance, anonymous and signed-in callers each in a pool of their own (503 with Retry-After beyond that), under the statement timeout, a shorter one for anonymous callers';
const SHORT_SUBSTRING =
  "contains is index-backed when the trigram index can look the substring up (by the database's own word characters: three in a row, or a shorter word beside a blank or punctuation inside the substring); any other substring is costly, and so is one the index does not narrow to few rows within the search budget";
const OWN_ROWS =
  'A caller other than an administrator lists only its own rows, through an index: for it, no condition or order is costly.';

/**
 * One `filter[member]` parameter per filterable member (deepObject: `filter[price_cents][gte]=100`),
 * each operator typed as the member's values parse; `filter[member]=v` is short for `[eq]`.
 */
function filterParameter(
  name: string,
  member: QueryableMember,
  backing: IndexBacking | undefined,
): JsonSchema {
  const value = valueSchema(member);
  const operators = FILTER_OPERATORS.filter((operator) => fits(operator, member.type));
  const indexed = operators.filter(
    (operator) => backing && servesOperator(backing, member.property, operator),
  );
  const costly = operators.filter((operator) => !indexed.includes(operator));
  const served = [
    indexed.length > 0 ? `Index-backed: ${indexed.join(', ')}.` : 'No index backs it.',
    costly.length > 0
      ? `${indexed.length > 0 ? 'The others are' : 'Conditions are'} ${COSTLY}.`
      : '',
    indexed.includes('contains') ? `${SHORT_SUBSTRING}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name: `filter[${name}]`,
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `Conditions on ${name} (${member.type}), combined with AND: filter[${name}][operator]=value, or filter[${name}]=value for eq. Operators: ${operators.join(', ')}. ${served}${name === member.name ? '' : ` ${RELATED}`}${restriction(member)}`,
    'x-index-backed': indexed,
    'x-costly': costly,
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
function orderParameterOf(
  definition: ResourceDefinition,
  backing: IndexBacking,
  ownRows: string,
): JsonSchema {
  const members = queryableMembers(definition);
  const keys = members.flatMap(({ name }) => [name, `-${name}`]);
  const indexed = members
    .filter((member) => backing.orders.has(member.property))
    .flatMap(({ name }) => [name, `-${name}`]);
  const costly = keys.filter((key) => !indexed.includes(key));
  return {
    name: 'order',
    in: 'query',
    style: 'form',
    explode: false,
    description: `Sort keys, comma-separated, "-" for descending; id breaks ties. Default: created_at, then id. Index-backed as the only key: ${indexed.join(', ')}; other orders (and several keys) are ${COSTLY}.${members.map(restrictedOrder).join('')}${ownRows}`,
    'x-index-backed': indexed,
    'x-costly': costly,
    schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: keys } },
  };
}

// A member read by some callers only (SPEC 1.16) is, for any other, no member at all.
function restriction({ readableBy }: QueryableMember): string {
  return readableBy
    ? ` Used by ${RESTRICTED_TO[readableBy]} only: for any other caller the member does not exist (400).`
    : '';
}

function restrictedOrder(member: QueryableMember): string {
  return member.readableBy
    ? ` ${member.name} and -${member.name}: by ${RESTRICTED_TO[member.readableBy]} only (400 for any other caller).`
    : '';
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
