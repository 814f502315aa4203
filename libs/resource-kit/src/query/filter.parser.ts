import type { AttributeType, ResourceDefinition } from '../metadata/definition';
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

export type FilterCondition =
  | {
      member: QueryableMember;
      operator: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains';
      value: QueryValue;
    }
  | { member: QueryableMember; operator: 'in'; value: QueryValue[] }
  | { member: QueryableMember; operator: 'null'; value: boolean };

const ORDERED: ReadonlySet<AttributeType> = new Set([
  'integer',
  'number',
  'date',
  'time',
  'string',
]);
const MAX_IN_VALUES = 100;
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
): { conditions: FilterCondition[]; problems: string[] } {
  const conditions: FilterCondition[] = [];
  const problems: string[] = [];
  for (const [key, text] of pairs) {
    const result = parseOne(key, text, definition);
    if ('problem' in result) problems.push(result.problem);
    else conditions.push(result.condition);
  }
  return { conditions, problems };
}

function parseOne(
  key: string,
  text: string,
  definition: ResourceDefinition,
): { condition: FilterCondition } | { problem: string } {
  const match = KEY.exec(key);
  if (!match)
    return {
      problem: `${key} is not a filter; use filter[attribute] or filter[attribute][operator]`,
    };
  const found = queryableMember(definition, match[1]);
  if ('problem' in found) return { problem: `${key}: ${found.problem}` };
  const { member } = found;
  const operator = (match[2] ?? 'eq') as FilterOperator;
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
