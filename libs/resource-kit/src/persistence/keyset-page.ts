import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { CursorCodec } from '../query/cursor.codec';

export const ALIAS = 'resource';

/** One page of rows and the cursor of the next one (null on the last page). */
export interface Page<T> {
  readonly entities: T[];
  readonly cursor: string | null;
}

const DEFAULT_ORDER_BINDING = 'order=created_at,id';

/**
 * Reads one page in the default order (created_at, then id) by keyset: the next page starts
 * after the last row's keys, so a page costs the same at any depth and rows inserted or
 * deleted meanwhile neither repeat nor skip others.
 */
export async function keysetPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  options: { limit: number; cursor?: string; codec: CursorCodec },
): Promise<Page<T>> {
  const { metadata } = query.expressionMap.mainAlias!;
  const createdAt = metadata.findColumnWithPropertyName('createdAt')!;
  const id = metadata.findColumnWithPropertyName('id')!;
  if (options.cursor !== undefined) {
    const [time, lastId] = options.codec.decode(options.cursor, DEFAULT_ORDER_BINDING) as [
      string,
      string,
    ];
    const after = query.connection.driver.preparePersistentValue(
      new Date(time),
      createdAt,
    ) as unknown;
    query.andWhere(
      `(${ALIAS}.${createdAt.databaseName} > :afterTime OR (${ALIAS}.${createdAt.databaseName} = :afterTime AND ${ALIAS}.${id.databaseName} > :afterId))`,
      { afterTime: after, afterId: lastId },
    );
  }
  const rows = await query
    .orderBy(`${ALIAS}.${createdAt.propertyName}`, 'ASC')
    .addOrderBy(`${ALIAS}.${id.propertyName}`, 'ASC')
    .limit(options.limit + 1)
    .getMany();
  if (rows.length <= options.limit) return { entities: rows, cursor: null };
  const entities = rows.slice(0, options.limit);
  const last = entities[entities.length - 1] as Record<string, unknown>;
  const keys = [(last.createdAt as Date).toISOString(), last.id];
  return { entities, cursor: options.codec.encode(keys, DEFAULT_ORDER_BINDING) };
}
