import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { FilterCondition } from '../query/filter.parser';
import type { OrderKey } from '../query/order.parser';
import type { CursorCodec } from '../query/cursor.codec';
import type { ResourceQuery } from '../query/query-parameters.parser';

export const ALIAS = 'resource';

/** One page of rows; `cursor` is null on the last page and absent for offset styles. */
export interface Page<T> {
  readonly entities: T[];
  readonly cursor?: string | null;
}

/**
 * The only place where a parsed query becomes SQL: filters, order and the page, with
 * column names from the entity's metadata and every value a bound parameter.
 */
export async function readPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  request: ResourceQuery,
  codec: CursorCodec,
): Promise<Page<T>> {
  const sql = new SqlContext(query);
  request.filters.forEach((condition, index) =>
    query.andWhere(sql.condition(condition, `f${index}`)),
  );
  sql.orderBy(request.order);
  const { page } = request;
  if (page.style === 'offset') {
    return { entities: await query.offset(page.offset).limit(page.limit).getMany() };
  }
  if (page.cursor !== undefined) {
    const values = codec.decode(page.cursor, request.binding);
    query.andWhere(sql.after(request.order, values));
  }
  const rows = await query.limit(page.limit + 1).getMany();
  if (rows.length <= page.limit) return { entities: rows, cursor: null };
  const entities = rows.slice(0, page.limit);
  const last = entities[entities.length - 1];
  return {
    entities,
    cursor: codec.encode(
      request.order.map((key) => cursorValue(last[key.member.property])),
      request.binding,
    ),
  };
}

/** Narrows a query to the rows matching every condition. */
export function applyFilters<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  filters: readonly FilterCondition[],
): SelectQueryBuilder<T> {
  const sql = new SqlContext(query);
  filters.forEach((condition, index) => query.andWhere(sql.condition(condition, `f${index}`)));
  return query;
}

function cursorValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

/** SQL fragments for one query: quoted columns, values prepared as the driver stores them. */
class SqlContext<T extends ObjectLiteral> {
  constructor(private readonly query: SelectQueryBuilder<T>) {}

  condition(condition: FilterCondition, name: string): string {
    const column = this.column(condition.member.property);
    const sql = this.sql(column);
    switch (condition.operator) {
      case 'null':
        return `${sql} IS ${condition.value ? '' : 'NOT '}NULL`;
      case 'in':
        this.query.setParameter(
          name,
          condition.value.map((value) => this.prepare(value, column)),
        );
        return `${sql} IN (:...${name})`;
      case 'contains':
        this.query.setParameter(name, `%${escapeLike(String(condition.value).toLowerCase())}%`);
        return `LOWER(${sql}) LIKE :${name} ESCAPE '\\'`;
      case 'ne':
        // "Not equal" includes rows where the attribute is empty.
        this.query.setParameter(name, this.prepare(condition.value, column));
        return `(${sql} <> :${name} OR ${sql} IS NULL)`;
      default:
        this.query.setParameter(name, this.prepare(condition.value, column));
        return `${sql} ${COMPARISON[condition.operator]} :${name}`;
    }
  }

  // Nulls sort as the smallest value on both engines: first ascending, last descending.
  // Only nullable columns say so: an explicit NULLS clause on a non-null column would keep
  // PostgreSQL from reading the order straight from an index.
  orderBy(keys: readonly OrderKey[]): void {
    keys.forEach(({ member, direction }, index) => {
      const sql = this.sql(this.column(member.property));
      const nulls = member.nullable
        ? direction === 'ASC'
          ? 'NULLS FIRST'
          : 'NULLS LAST'
        : undefined;
      if (index === 0) this.query.orderBy(sql, direction, nulls);
      else this.query.addOrderBy(sql, direction, nulls);
    });
  }

  /**
   * Rows strictly after the cursor's keys in this order. Uniform non-null keys use a row
   * comparison, which an index on the keys answers directly; otherwise the expansion
   * "k1 after v1, or k1 = v1 and k2 after v2, ..." handles mixed directions and nulls.
   */
  after(keys: readonly OrderKey[], values: unknown[]): string {
    const columns = keys.map((key) => this.column(key.member.property));
    const prepared = keys.map((key, i) =>
      this.cursorParameter(values[i], key, columns[i], `c${i}`),
    );
    const uniform = keys.every((key) => key.direction === keys[0].direction);
    if (
      uniform &&
      values.every((value) => value !== null) &&
      keys.every((key) => !key.member.nullable)
    ) {
      const operator = keys[0].direction === 'ASC' ? '>' : '<';
      return `(${columns.map((c) => this.sql(c)).join(', ')}) ${operator} (${prepared.join(', ')})`;
    }
    const branches = keys.map((key, i) => {
      const equalBefore = keys
        .slice(0, i)
        .map((_, j) => this.equals(columns[j], prepared[j], values[j]));
      return [...equalBefore, this.strictlyAfter(key, columns[i], prepared[i], values[i])].join(
        ' AND ',
      );
    });
    return `(${branches.map((branch) => `(${branch})`).join(' OR ')})`;
  }

  private strictlyAfter(
    key: OrderKey,
    column: ColumnMetadata,
    parameter: string,
    value: unknown,
  ): string {
    const sql = this.sql(column);
    if (key.direction === 'ASC')
      return value === null ? `${sql} IS NOT NULL` : `${sql} > ${parameter}`;
    return value === null ? '1 = 0' : `(${sql} < ${parameter} OR ${sql} IS NULL)`;
  }

  private equals(column: ColumnMetadata, parameter: string, value: unknown): string {
    return value === null ? `${this.sql(column)} IS NULL` : `${this.sql(column)} = ${parameter}`;
  }

  private cursorParameter(
    value: unknown,
    key: OrderKey,
    column: ColumnMetadata,
    name: string,
  ): string {
    const typed = key.member.type === 'time' && typeof value === 'string' ? new Date(value) : value;
    this.query.setParameter(name, this.prepare(typed, column));
    return `:${name}`;
  }

  private column(property: string): ColumnMetadata {
    return this.query.expressionMap.mainAlias!.metadata.findColumnWithPropertyName(property)!;
  }

  private sql(column: ColumnMetadata): string {
    const { driver } = this.query.connection;
    return `${driver.escape(ALIAS)}.${driver.escape(column.databaseName)}`;
  }

  private prepare(value: unknown, column: ColumnMetadata): unknown {
    return this.query.connection.driver.preparePersistentValue(value, column) as unknown;
  }
}

const COMPARISON = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
