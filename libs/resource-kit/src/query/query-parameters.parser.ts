import { invalidInput } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { DefinitionOf, FilterCondition, parseFilters } from './filter.parser';
import { OrderKey, parseOrder } from './order.parser';
import {
  PAGE_PARAMETERS,
  PageLimits,
  PageRequest,
  PaginationStyle,
  parsePageRequest,
} from './pagination';

/** The three path shapes under a resource type (SPEC 1.1). */
export type PathShape = 'collection' | 'item' | 'relationship';

/** A request's query, parsed against its resource; `binding` ties cursors to it. */
export interface ResourceQuery {
  readonly filters: readonly FilterCondition[];
  readonly order: readonly OrderKey[];
  readonly page: PageRequest;
  /** Canonical filter and order, which a cursor must have been issued for. */
  readonly binding: string;
}

export interface QueryPolicy {
  readonly pagination: PaginationStyle;
  readonly limits: PageLimits;
  /** Resolves relationships for filters on related resources; without it, none are allowed. */
  readonly definitionOf?: DefinitionOf;
}

/**
 * Parses a raw query string (`filter[name]=x&order=-price&limit=10`) for a path shape:
 * collections take filter, order and the pagination parameters; single resources only
 * filter. Every problem is reported at once; any other parameter is 400.
 */
export function parseResourceQuery(
  query: string,
  shape: PathShape | 'to-one',
  definition: ResourceDefinition,
  policy: QueryPolicy,
): ResourceQuery {
  const isCollection = shape === 'collection' || shape === 'relationship';
  const allowed = new Set(isCollection ? ['order', ...PAGE_PARAMETERS[policy.pagination]] : []);
  const problems: string[] = [];
  const filterPairs: [string, string][] = [];
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(query)) {
    if (params.has(key) || filterPairs.some(([seen]) => seen === key))
      problems.push(`${key} is given more than once`);
    else if (key.startsWith('filter[')) filterPairs.push([key, value]);
    else if (allowed.has(key)) params.set(key, value);
    else problems.push(`query parameter ${key} is not allowed here`);
  }
  const filters = parseFilters(filterPairs, definition, policy.definitionOf);
  const order = parseOrder(params.get('order'), definition);
  const page = parsePageRequest(policy.pagination, params, policy.limits);
  problems.push(...filters.problems, ...order.problems, ...page.problems);
  if (problems.length > 0) throw invalidInput(problems);
  const orderText = order.keys.map(
    (key) => `${key.direction === 'DESC' ? '-' : ''}${key.member.name}`,
  );
  const binding = JSON.stringify([filterPairs.sort(([a], [b]) => (a < b ? -1 : 1)), orderText]);
  return { filters: filters.conditions, order: order.keys, page: page.page, binding };
}
