import { getMetadataArgsStorage } from 'typeorm';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import type { FilterCondition, RelatedStep } from '../query/filter.parser';
import type { OrderKey } from '../query/order.parser';

/** What the declared indexes of a resource serve, by entity property. */
export interface IndexBacking {
  /** Properties that lead an index: equality, ranges, `in` and `null` read it. */
  readonly filters: ReadonlySet<string>;
  /** Properties with an index on (property, id): an order by the property alone walks it. */
  readonly orders: ReadonlySet<string>;
  /** Properties with a trigram index: `contains` reads it (PostgreSQL). */
  readonly searches: ReadonlySet<string>;
}

const backings = new WeakMap<ResourceDefinition, IndexBacking>();

/** Read from the indexes the entity declares (TypeORM's), and its primary key; once each. */
export function indexBackingOf(definition: ResourceDefinition): IndexBacking {
  let backing = backings.get(definition);
  if (!backing) {
    backing = readIndexBacking(definition);
    backings.set(definition, backing);
  }
  return backing;
}

function readIndexBacking(definition: ResourceDefinition): IndexBacking {
  const columns = getMetadataArgsStorage()
    .indices.filter((index) => index.target === definition.entity && index.synchronize)
    .map((index) => (Array.isArray(index.columns) ? index.columns : []));
  const filters = new Set(['id', ...columns.filter((c) => c.length > 0).map(([first]) => first)]);
  const orders = new Set([
    'id',
    ...columns.filter((c) => c.length === 2 && c[1] === 'id').map(([first]) => first),
  ]);
  const searches = new Set(
    definition.attributes.filter((a) => a.searchable).map((a) => a.property),
  );
  return { filters, orders, searches };
}

// Operators an index on the member's column serves; `ne` never does (it keeps nulls too).
const INDEXED_OPERATORS: ReadonlySet<string> = new Set([
  'eq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'null',
]);

/** Whether an index serves `operator` on `property` (for `contains`: a long enough substring). */
export function servesOperator(backing: IndexBacking, property: string, operator: string): boolean {
  return operator === 'contains'
    ? backing.searches.has(property)
    : INDEXED_OPERATORS.has(operator) && backing.filters.has(property);
}

/**
 * The index backing of the resource at the end of relationships when an index serves each
 * step (the reference column on its side: a to-one's own, a to-many's inverse), else undefined.
 */
export function servedThrough(
  backing: IndexBacking,
  through: readonly RelatedStep[],
): IndexBacking | undefined {
  let near = backing;
  for (const step of through) {
    const far = indexBackingOf(step.target);
    const indexed = step.far === 'id' ? near.filters.has(step.near) : far.filters.has(step.far);
    if (!indexed) return undefined;
    near = far;
  }
  return near;
}

/**
 * Whether no index serves a query (SPEC 1.6, "costly"): a condition whose operator no index
 * serves, a substring the trigram index cannot look up (`searchable` says, TrigramWords), or
 * an order other than one indexed key. Such a query may read the whole table.
 */
export function isCostly(
  backing: IndexBacking,
  filters: readonly FilterCondition[],
  order: readonly OrderKey[],
  searchable: (substring: string) => boolean,
): boolean {
  const costlyFilter = filters.some((condition) => {
    const { member, operator, value } = condition;
    const at = condition.through ? servedThrough(backing, condition.through) : backing;
    return (
      !at ||
      !servesOperator(at, member.property, operator) ||
      (operator === 'contains' && !searchable(String(value)))
    );
  });
  const [first, ...rest] = order;
  const servedOrder =
    first === undefined ||
    (backing.orders.has(first.member.property) &&
      rest.every((key) => key.member.property === 'id'));
  return costlyFilter || !servedOrder;
}

/**
 * Whether an index leads each step of an owner path (`userId`; `orderId.userId`: the order
 * reference here, the user on the order): then a list confined to one owner's rows reads
 * few rows whatever its filters and order (SPEC 1.6, not costly).
 */
export function ownerPathIndexed(
  definition: ResourceDefinition,
  definitionOf: (entity: EntityClass) => ResourceDefinition,
): boolean {
  if (!definition.owner) return false;
  let at = definition;
  for (const property of definition.owner.split('.')) {
    if (!indexBackingOf(at).filters.has(property)) return false;
    const reference = at.attributes.find((a) => a.property === property)?.reference;
    if (reference) at = definitionOf(reference.target());
  }
  return true;
}
