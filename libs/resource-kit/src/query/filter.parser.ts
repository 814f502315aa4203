import type { AttributeType, EntityClass, ResourceDefinition } from '../metadata/definition';
import { describeType, parseQueryValue, QueryValue } from './query-value.parser';
import { QueryableMember, queryableMember } from './queryable-members';

export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'contains',
  'null',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterCondition = (
  | {
      member: QueryableMember;
      operator: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains';
      value: QueryValue;
    }
  | { member: QueryableMember; operator: 'in'; value: QueryValue[] }
  | { member: QueryableMember; operator: 'null'; value: boolean }
) & {
  /** The relationships to the resource whose member it names (`filter[order.status]`). */
  through?: readonly RelatedStep[];
};

/**
 * One relationship a filter goes through: from the row's `near` property to the `far` one of
 * the target's rows (a to-one reference to `id`, or `id` to a to-many's inverse reference).
 */
export interface RelatedStep {
  readonly relationship: string;
  readonly target: ResourceDefinition;
  readonly near: string;
  readonly far: string;
}

/** The definition of a resource a relationship points at. */
export type DefinitionOf = (entity: EntityClass) => ResourceDefinition;

const ORDERED: ReadonlySet<AttributeType> = new Set([
  'integer',
  'number',
  'date',
  'time',
  'string',
]);
const MAX_IN_VALUES = 100;
// SPEC 1.15: filter[order_items.product.currency] is the deepest.
export const MAX_HOPS = 2;
const KEY = /^filter\[([^\][]+)\](?:\[([^\][]+)\])?$/;

/** Which operators fit which types: comparisons need an order, `contains` needs text. */
export function fits(operator: FilterOperator, type: AttributeType): boolean {
  if (['lt', 'lte', 'gt', 'gte'].includes(operator)) return ORDERED.has(type);
  if (operator === 'contains') return type === 'string';
  return true;
}

/**
 * Parses `filter[attr]=v` and `filter[attr][op]=v` pairs against a resource. Returns the
 * conditions (combined with AND) and one problem per bad parameter.
 */
export function parseFilters(
  pairs: ReadonlyArray<readonly [string, string]>,
  definition: ResourceDefinition,
  definitionOf?: DefinitionOf,
): { conditions: FilterCondition[]; problems: string[] } {
  const conditions: FilterCondition[] = [];
  const problems: string[] = [];
  for (const [key, text] of pairs) {
    const result = parseOne(key, text, definition, definitionOf);
    if ('problem' in result) problems.push(result.problem);
    else conditions.push(result.condition);
  }
  return { conditions, problems };
}

function parseOne(
  key: string,
  text: string,
  definition: ResourceDefinition,
  definitionOf?: DefinitionOf,
): { condition: FilterCondition } | { problem: string } {
  const match = KEY.exec(key);
  if (!match)
    return {
      problem: `${key} is not a filter; use filter[attribute] or filter[attribute][operator]`,
    };
  const found = filteredMember(definition, match[1], definitionOf);
  if ('problem' in found) return { problem: `${key}: ${found.problem}` };
  const condition = parseCondition(key, match[2], text, found.member);
  if ('problem' in condition || !found.through) return condition;
  return { condition: { ...condition.condition, through: found.through } };
}

/**
 * The member a filter names: one of the resource's own (`status`, `subject.type`), or one of
 * a related resource's, through at most two relationships (`order.status`,
 * `order_items.product.currency`).
 */
export function filteredMember(
  definition: ResourceDefinition,
  name: string,
  definitionOf?: DefinitionOf,
): { member: QueryableMember; through?: RelatedStep[] } | { problem: string } {
  const [first, ...rest] = name.split('.');
  const isRelated =
    rest.length > 0 && (definition.toOne.has(first) || definition.toMany.has(first));
  if (!isRelated || !definitionOf) return queryableMember(definition, name);
  if (rest.length > MAX_HOPS) {
    return { problem: `a filter goes through at most ${MAX_HOPS} relationships` };
  }
  const through: RelatedStep[] = [];
  let current = definition;
  for (const relationship of [first, ...rest.slice(0, -1)]) {
    const step = stepOf(current, relationship, definitionOf);
    if ('problem' in step) return step;
    through.push(step);
    current = step.target;
  }
  const found = queryableMember(current, rest[rest.length - 1]);
  return 'problem' in found ? found : { member: found.member, through };
}

export function stepOf(
  from: ResourceDefinition,
  relationship: string,
  definitionOf: DefinitionOf,
): RelatedStep | { problem: string } {
  const toOne = from.toOne.get(relationship);
  const toMany = from.toMany.get(relationship);
  if (!toOne && !toMany) {
    return { problem: `${relationship} is not a relationship of ${from.type}` };
  }
  const target = definitionOf(toOne ? toOne.reference!.target() : toMany!.target());
  if (!target.operations.has('read') && !target.operations.has('list')) {
    return { problem: `${target.type} cannot be read, so it cannot be filtered by` };
  }
  return toOne
    ? { relationship, target, near: toOne.property, far: 'id' }
    : { relationship, target, near: 'id', far: toMany!.inverse };
}

function parseCondition(
  key: string,
  operatorName: string | undefined,
  text: string,
  member: QueryableMember,
): { condition: FilterCondition } | { problem: string } {
  const operator = (operatorName ?? 'eq') as FilterOperator;
  if (!FILTER_OPERATORS.includes(operator)) {
    return {
      problem: `${key}: unknown operator ${operator}; use one of ${FILTER_OPERATORS.join(', ')}`,
    };
  }
  if (!fits(operator, member.type))
    return { problem: `${key}: operator ${operator} does not apply to ${member.type} attributes` };
  if (operator === 'null') {
    if (text !== 'true' && text !== 'false') return { problem: `${key} must be true or false` };
    return { condition: { member, operator, value: text === 'true' } };
  }
  if (operator === 'in') {
    const values = text.split(',').map((item) => parseQueryValue(member, item));
    if (values.length > MAX_IN_VALUES)
      return { problem: `${key} takes at most ${MAX_IN_VALUES} values` };
    if (values.some((value) => value === undefined)) {
      return { problem: `${key} must be a comma-separated list of ${describeType(member)} values` };
    }
    return { condition: { member, operator, value: values as QueryValue[] } };
  }
  const value = parseQueryValue(member, text);
  if (value === undefined) return { problem: `${key} must be ${describeType(member)}` };
  return { condition: { member, operator, value } };
}
