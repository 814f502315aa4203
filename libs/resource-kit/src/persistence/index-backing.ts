import { getMetadataArgsStorage } from 'typeorm';
import type { ResourceDefinition } from '../metadata/definition';

/** What the declared indexes of a resource serve, by entity property. */
export interface IndexBacking {
  /** Properties that lead an index: equality, ranges, `in` and `null` read it. */
  readonly filters: ReadonlySet<string>;
  /** Properties with an index on (property, id): an order by the property alone walks it. */
  readonly orders: ReadonlySet<string>;
  /** Properties with a trigram index: `contains` reads it (PostgreSQL). */
  readonly searches: ReadonlySet<string>;
}

/** Read from the indexes the entity declares (TypeORM's), and its primary key. */
export function indexBackingOf(definition: ResourceDefinition): IndexBacking {
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
