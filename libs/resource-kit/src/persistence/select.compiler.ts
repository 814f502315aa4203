import type { OrderKey } from '../query/order.parser';

/** What differs between the engines in the SQL the kit writes. */
export interface SqlDialect {
  /** The n-th bound parameter, from 1: `$1` (PostgreSQL) or `?` (SQLite). */
  placeholder(index: number): string;
  /** Appended to a locked read: ` FOR UPDATE`, or nothing where writes lock the whole file. */
  readonly lock: string;
  /** `expression` in lower case as `contains` compares it: Unicode's, on every engine. */
  lower(expression: string): string;
  /**
   * The settings of a transaction that bounds a costly read: no parallel workers (one core
   * per read), and a statement timeout when given. Undefined where the engine has neither.
   */
  bounded?(statementTimeoutMs?: number): string;
}

/** A resource's table as the compiler sees it: quoted names, resolved once. */
export interface TableSql {
  /** `"products" "resource"` */
  readonly from: string;
  /** `"resource"`, the alias every column is qualified with. */
  readonly alias: string;
  /** Every column, each named by its entity property: `"resource"."price_cents" AS "priceCents"`. */
  readonly selectList: string;
  /** `"resource"."price_cents"` for `priceCents`. */
  column(property: string): string;
  /** The table unaliased, `"orders"`, as a related row's condition reads it. */
  readonly name: string;
  /** `"related_1"."user_id"` for `userId`: a column of this table under another alias. */
  columnAs(alias: string, property: string): string;
}

/**
 * A step from a row to the rows related to it: `near`, a property of the row, equals `far`,
 * a property of the related table's rows. A to-one step goes from its reference to `id`, a
 * to-many step from `id` to the inverse reference.
 */
export interface Hop {
  readonly table: TableSql;
  readonly near: string;
  readonly far: string;
}

/** One condition; its values are bound, never written into the SQL. */
export type Predicate =
  | {
      readonly property: string;
      /** `eqOrNull`: equal, or empty (rows of the caller's tenant or of none). */
      readonly operator: 'eq' | 'eqOrNull' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains';
    }
  | { readonly property: string; readonly operator: 'in'; readonly count: number }
  | { readonly property: string; readonly operator: 'null'; readonly value: boolean }
  /** A related row through `hop` meets `where` (the parent counts once, however many do). */
  | { readonly operator: 'exists'; readonly hop: Hop; readonly where: readonly Predicate[] }
  /** Matches no row: related rows the caller may not read. */
  | { readonly operator: 'none' };

/** The shape of a SELECT: everything about it except the values it binds. */
export interface SelectShape {
  /** An id subquery that narrows the rows first (a `scope` hook), and how many values it binds. */
  readonly within?: { readonly sql: string; readonly parameters: number };
  readonly where: readonly Predicate[];
  readonly order?: readonly OrderKey[];
  /** Keyset pages: rows after the cursor; for each order key, whether its value is null. */
  readonly after?: readonly boolean[];
  readonly limit?: boolean;
  /** With `limit`: skip a bound number of rows first (offset and page styles). */
  readonly offset?: boolean;
  readonly lock?: boolean;
  readonly idsOnly?: boolean;
  /**
   * How a page with `contains` conditions reads (see `Selection.page`). `window`: the first
   * rows in the order that meet the other conditions, a bound number of them, then those that
   * contain; `searchFirst`: every row that meets the conditions (the search index finds them),
   * then the order.
   */
  readonly search?: 'window' | 'searchFirst';
}

/** A SELECT of one table to compile into another statement, and its values in shape order. */
export interface Subquery {
  readonly table: TableSql;
  readonly shape: SelectShape;
  readonly values: readonly unknown[];
}

/**
 * A compiled SELECT. Values are given in shape order: one per comparison, `count` per `in`,
 * none per `null`; then one per order key when `after` is set (null keys bind nothing); then
 * the limit, the offset and, with `search: 'window'`, the window's size. `slots` says which
 * of them each placeholder binds.
 */
export interface CompiledSelect {
  readonly sql: string;
  readonly slots: readonly number[];
}

const COMPARISON = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** Writes the SQL of a shape; pure, so that each shape is compiled once and cached. */
export function compileSelect(
  shape: SelectShape,
  table: TableSql,
  dialect: SqlDialect,
  /** Values the statement binds before this SELECT's (a scope hook's, or an INSERT's). */
  offset = shape.within?.parameters ?? 0,
): CompiledSelect {
  const slots: number[] = [];
  const bind = (value: number): string => {
    slots.push(value);
    return dialect.placeholder(offset + slots.length);
  };
  // Values come in shape order (predicates, cursor keys, limit, offset, window), placeholders
  // in the order the text names them: each part binds from its own first value.
  const firsts = firstValues(shape.where);
  const order = shape.order ?? [];
  const afterFirst = firsts[shape.where.length];
  const limitAt = afterFirst + (shape.after ? order.length : 0);
  const within = shape.within ? [`${table.column('id')} IN (${shape.within.sql})`] : [];
  const conditions = (keep: (predicate: Predicate) => boolean) =>
    shape.where.flatMap((predicate, i) => {
      if (!keep(predicate)) return [];
      let value = firsts[i];
      const next = () => bind(value++);
      return [predicateSql(predicate, (property) => table.column(property), dialect, next, 1)];
    });
  const after = () =>
    shape.after ? [afterSql(order, shape.after, table, (key) => bind(afterFirst + key))] : [];
  const where = (parts: string[]) => (parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '');
  const orderBy =
    order.length > 0 ? ` ORDER BY ${order.map((key) => orderSql(key, table)).join(', ')}` : '';
  const page = () =>
    (shape.limit ? ` LIMIT ${bind(limitAt)}` : '') +
    (shape.offset ? ` OFFSET ${bind(limitAt + 1)}` : '');
  const select = `SELECT ${shape.idsOnly ? table.column('id') : table.selectList}`;
  const everyCondition = () => where([...within, ...conditions(() => true), ...after()]);
  let sql: string;
  if (shape.search === 'window') {
    const inner =
      `SELECT ${table.alias}.* FROM ${table.from}` +
      where([...within, ...conditions((p) => !isSearch(p)), ...after()]) +
      `${orderBy} LIMIT ${bind(limitAt + (shape.offset ? 2 : 1))}`;
    sql = `${select} FROM (${inner}) ${table.alias}${where(conditions(isSearch))}${orderBy}${page()}`;
  } else if (shape.search === 'searchFirst') {
    // The fence keeps the order and the limit out: no plan can walk the order's index.
    const found = `SELECT ${table.alias}.* FROM ${table.from}${everyCondition()}`;
    sql = `WITH found AS MATERIALIZED (${found}) ${select} FROM found ${table.alias}${orderBy}${page()}`;
  } else {
    sql = `${select} FROM ${table.from}${everyCondition()}${orderBy}${page()}`;
  }
  return { sql: sql + (shape.lock ? dialect.lock : ''), slots };
}

const isSearch = (predicate: Predicate): boolean => predicate.operator === 'contains';

// The index of each predicate's first value, and after them the index of the next value.
function firstValues(where: readonly Predicate[]): number[] {
  const firsts = [0];
  for (const predicate of where) firsts.push(firsts[firsts.length - 1] + valueCount(predicate));
  return firsts;
}

function valueCount(predicate: Predicate): number {
  switch (predicate.operator) {
    case 'in':
      return predicate.count;
    case 'null':
    case 'none':
      return 0;
    case 'exists':
      return predicate.where.reduce((sum, inner) => sum + valueCount(inner), 0);
    default:
      return 1;
  }
}

/** A cache key naming everything that changes the SQL of a shape without `within`. */
export function shapeKey(shape: SelectShape): string {
  const where = shape.where.map(predicateKey);
  const order = (shape.order ?? []).map((key) => `${key.member.property} ${key.direction}`);
  return `${where.join()}|${order.join()}|${shape.after?.join() ?? ''}|${shape.limit ?? ''}|${shape.offset ?? ''}|${shape.lock ?? ''}|${shape.idsOnly ?? ''}|${shape.search ?? ''}`;
}

function predicateKey(p: Predicate): string {
  if (p.operator === 'none') return 'none';
  if (p.operator === 'exists') {
    const { table, near, far } = p.hop;
    return `${near} ${table.name}.${far} (${p.where.map(predicateKey).join()})`;
  }
  return `${p.property} ${p.operator} ${'count' in p ? p.count : 'value' in p ? p.value : ''}`;
}

/**
 * One condition; `columnOf` qualifies a property of the row it applies to, `next` binds its
 * values in order. A related row's conditions nest in an EXISTS under the alias
 * `related_<depth>`: a to-one step on the related table's primary key, which both engines plan
 * as a join.
 */
function predicateSql(
  predicate: Predicate,
  columnOf: (property: string) => string,
  dialect: SqlDialect,
  next: () => string,
  depth: number,
): string {
  if (predicate.operator === 'none') return '1 = 0';
  if (predicate.operator === 'exists') {
    const { table, near, far } = predicate.hop;
    const alias = `"related_${depth}"`;
    const related = (property: string) => table.columnAs(alias, property);
    const inner = predicate.where.map((p) => predicateSql(p, related, dialect, next, depth + 1));
    const where = [`${related(far)} = ${columnOf(near)}`, ...inner].join(' AND ');
    return `EXISTS (SELECT 1 FROM ${table.name} ${alias} WHERE ${where})`;
  }
  const column = columnOf(predicate.property);
  switch (predicate.operator) {
    case 'null':
      return `${column} IS ${predicate.value ? '' : 'NOT '}NULL`;
    case 'in':
      return `${column} IN (${Array.from({ length: predicate.count }, next).join(', ')})`;
    case 'contains':
      return `${dialect.lower(column)} LIKE ${next()} ESCAPE '\\'`;
    case 'ne':
      // "Not equal" includes rows where the attribute is empty.
      return `(${column} <> ${next()} OR ${column} IS NULL)`;
    case 'eqOrNull':
      return `(${column} = ${next()} OR ${column} IS NULL)`;
    default:
      return `${column} ${COMPARISON[predicate.operator]} ${next()}`;
  }
}

// Nulls sort as the smallest value on both engines: first ascending, last descending.
// Only nullable columns say so: an explicit NULLS clause on a non-null column would keep
// PostgreSQL from reading the order straight from an index.
function orderSql({ member, direction }: OrderKey, table: TableSql): string {
  const nulls = member.nullable ? (direction === 'ASC' ? ' NULLS FIRST' : ' NULLS LAST') : '';
  return `${table.column(member.property)} ${direction}${nulls}`;
}

/**
 * Rows strictly after the cursor's keys in this order. Uniform non-null keys use a row
 * comparison, which an index on the keys answers directly; otherwise the expansion
 * "k1 after v1, or k1 = v1 and k2 after v2, ..." handles mixed directions and nulls.
 */
function afterSql(
  keys: readonly OrderKey[],
  isNull: readonly boolean[],
  table: TableSql,
  bind: (key: number) => string,
): string {
  const columns = keys.map((key) => table.column(key.member.property));
  const uniform = keys.every((key) => key.direction === keys[0].direction);
  if (uniform && !isNull.some(Boolean) && keys.every((key) => !key.member.nullable)) {
    const operator = keys[0].direction === 'ASC' ? '>' : '<';
    return `(${columns.join(', ')}) ${operator} (${keys.map((_, i) => bind(i)).join(', ')})`;
  }
  const equal = (i: number) => (isNull[i] ? `${columns[i]} IS NULL` : `${columns[i]} = ${bind(i)}`);
  const strictlyAfter = (i: number): string => {
    if (keys[i].direction === 'ASC')
      return isNull[i] ? `${columns[i]} IS NOT NULL` : `${columns[i]} > ${bind(i)}`;
    return isNull[i] ? '1 = 0' : `(${columns[i]} < ${bind(i)} OR ${columns[i]} IS NULL)`;
  };
  const branches = keys.map((_, i) =>
    [...keys.slice(0, i).map((__, j) => equal(j)), strictlyAfter(i)].join(' AND '),
  );
  return `(${branches.map((branch) => `(${branch})`).join(' OR ')})`;
}
