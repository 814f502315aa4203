import type { EntityManager } from 'typeorm';
import type { CursorCodec } from '../query/cursor.codec';
import { isStatementTimeout, SearchOverBudget, type CostlyRead } from './costly-queries';
import type { FilterCondition } from '../query/filter.parser';
import type { OrderKey } from '../query/order.parser';
import type { ResourceQuery } from '../query/query-parameters.parser';
import { onReplica, type ReplicaRead } from './read-replicas';
import type { ResourceTable } from './resource-table';
import type { Predicate, SelectShape, Subquery } from './select.compiler';

// Rows in the order that a page with a substring condition looks at before its search index.
const SEARCH_WINDOW = 5_000;

/** One page of rows; `cursor` is null on the last page and absent for offset styles. */
export interface Page<T> {
  readonly entities: T[];
  readonly cursor?: string | null;
}

/** An id subquery a `scope` hook narrows the rows with, and the values it binds. */
export interface Within {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/**
 * Conditions on the rows of one table, each value prepared as the driver stores it in its
 * column and bound, in order, into a list that conditions on related rows share.
 */
export class Conditions {
  constructor(
    readonly table: ResourceTable<object>,
    protected readonly where: Predicate[] = [],
    protected readonly values: unknown[] = [],
  ) {}

  equals(property: string, value: unknown): this {
    this.where.push({ property, operator: 'eq' });
    this.values.push(this.table.prepare(property, value));
    return this;
  }

  /** Rows whose `property` equals `value` or is empty. */
  equalsOrEmpty(property: string, value: unknown): this {
    this.where.push({ property, operator: 'eqOrNull' });
    this.values.push(this.table.prepare(property, value));
    return this;
  }

  empty(property: string): this {
    this.where.push({ property, operator: 'null', value: true });
    return this;
  }

  oneOf(property: string, values: readonly unknown[]): this {
    this.where.push({ property, operator: 'in', count: values.length });
    this.values.push(...values.map((value) => this.table.prepare(property, value)));
    return this;
  }

  /** The conditions of filter parameters on this table's own members. */
  filter(conditions: readonly FilterCondition[]): this {
    for (const condition of conditions) {
      const { property } = condition.member;
      if (condition.operator === 'in') this.oneOf(property, condition.value);
      else if (condition.operator === 'null')
        this.where.push({ property, operator: 'null', value: condition.value });
      else {
        this.where.push({ property, operator: condition.operator });
        this.values.push(
          condition.operator === 'contains'
            ? `%${escapeLike(String(condition.value).toLowerCase())}%`
            : this.table.prepare(property, condition.value),
        );
      }
    }
    return this;
  }

  /**
   * Rows with at least one related row, in `table`, whose `far` property equals their `near`
   * one, and which meets what `meet` adds to the conditions it is given.
   */
  related(
    step: { table: ResourceTable<object>; near: string; far: string },
    meet: (related: Conditions) => void,
  ): this {
    const related = new Conditions(step.table, [], this.values);
    meet(related);
    const hop = { table: step.table.sql, near: step.near, far: step.far };
    this.where.push({ operator: 'exists', hop, where: related.where });
    return this;
  }

  /** No row: the caller may read none of them. */
  none(): this {
    this.where.push({ operator: 'none' });
    return this;
  }

  /** The rows' ids as a subquery of another statement (an INSERT's `WHERE EXISTS`). */
  idsSubquery(): Subquery {
    return {
      table: this.table.sql,
      shape: { where: this.where, idsOnly: true },
      values: this.values,
    };
  }
}

/**
 * The rows a read addresses: conditions (owner, relationship, id, filters) gathered as a
 * query shape plus bound values. Reading it compiles the shape once per table and binds only
 * the values.
 */
export class Selection<T extends object> extends Conditions {
  private costly?: CostlyRead;
  private searchBudgetMs?: number;

  constructor(
    override readonly table: ResourceTable<T>,
    private readonly manager: EntityManager,
    private readonly within?: Within,
    /** Set when `manager` is a replica's: where the read goes if that replica fails. */
    private readonly replica?: ReplicaRead,
  ) {
    super(table);
  }

  /** Reads as a costly query: each statement in a transaction of the bound's settings. */
  bounded(settings: CostlyRead): this {
    this.costly = settings;
    return this;
  }

  /**
   * Reads the matches of a search by its index under a statement timeout of `ms`: past it,
   * the index did not narrow the search, and the read throws SearchOverBudget.
   */
  searchBudget(ms: number): this {
    this.searchBudgetMs = ms;
    return this;
  }

  /** The rows, locked for the rest of the transaction when `lock` (where the engine locks rows). */
  rows(lock = false): Promise<T[]> {
    return this.select(this.shape({ lock }), this.values);
  }

  async ids(): Promise<string[]> {
    const rows = await this.select(this.shape({ idsOnly: true }), this.values);
    return rows.map((row) => (row as { id: string }).id);
  }

  /** One page in the request's order: keyset after its cursor, or offset. */
  async page(request: ResourceQuery, codec: CursorCodec): Promise<Page<T>> {
    this.filter(request.filters);
    const { order, page } = request;
    if (page.style === 'offset') {
      return {
        entities: await this.pageRows(
          { order, offset: true },
          [page.limit, page.offset],
          page.limit,
        ),
      };
    }
    const keys = page.cursor === undefined ? undefined : codec.decode(page.cursor, request.binding);
    const after = keys && order.map((_, i) => keys[i] === null);
    const afterValues = keys ? order.map((key, i) => this.cursorValue(key, keys[i])) : [];
    const wanted = page.limit + 1; // one more than the page: whether another follows
    const rows = await this.pageRows({ order, after }, [...afterValues, wanted], wanted);
    if (rows.length <= page.limit) return { entities: rows, cursor: null };
    const entities = rows.slice(0, page.limit);
    const last = entities[entities.length - 1] as Record<string, unknown>;
    const lastKeys = order.map((key) => wireKey(last[key.member.property]));
    return { entities, cursor: codec.encode(lastKeys, request.binding) };
  }

  /**
   * A page's rows (`wanted` of them when there are): `tail` binds the cursor's keys, the
   * limit and the offset. A substring (`contains`) is either common, so that a page is found
   * among the first rows in the order, or rare, so
   * that its search index finds every match at little cost; PostgreSQL cannot tell which
   * from its statistics (it guessed both ways wrong by 10 to 100 times, and a wrong plan
   * reads every row). So: the first SEARCH_WINDOW rows in the order first; when fewer than
   * wanted of them match, the matches are rare: read them by the index, then order them.
   * Rare matches of trigrams that every row has are not few candidates, though: that read
   * runs under the search budget, or the costly bound's settings.
   */
  private async pageRows(
    shape: Pick<SelectShape, 'order' | 'after' | 'offset'>,
    tail: unknown[],
    wanted: number,
  ): Promise<T[]> {
    const page = { ...shape, limit: true };
    if (!this.where.some((predicate) => predicate.operator === 'contains')) {
      return this.read(page, tail);
    }
    const found = await this.read({ ...page, search: 'window' }, [...tail, SEARCH_WINDOW]);
    if (found.length >= wanted) return found;
    if (this.costly || this.searchBudgetMs === undefined) {
      return this.read({ ...page, search: 'searchFirst' }, tail);
    }
    const budget = { statementTimeoutMs: this.searchBudgetMs };
    return this.read({ ...page, search: 'searchFirst' }, tail, budget).catch((error) => {
      throw isStatementTimeout(error) ? new SearchOverBudget() : error;
    });
  }

  private read(
    shape: Omit<SelectShape, 'where' | 'within'>,
    tail: unknown[],
    settings = this.costly,
  ): Promise<T[]> {
    return this.select(this.shape(shape), [...this.values, ...tail], settings);
  }

  private select(shape: SelectShape, values: unknown[], limits = this.costly): Promise<T[]> {
    return onReplica(this.manager, this.replica, (manager) => {
      const read = (on: EntityManager) => this.table.select(on, shape, values, this.within?.values);
      const settings = limits && this.table.dialect.bounded?.(limits.statementTimeoutMs);
      if (!settings || manager.queryRunner) return read(manager);
      return manager.transaction(async (bounded) => {
        await bounded.query(settings);
        return read(bounded);
      });
    });
  }

  private shape(rest: Omit<SelectShape, 'where' | 'within'>): SelectShape {
    return {
      ...rest,
      where: this.where,
      within: this.within && { sql: this.within.sql, parameters: this.within.values.length },
    };
  }

  private cursorValue(key: OrderKey, value: unknown): unknown {
    if (value === null) return null;
    const typed = key.member.type === 'time' && typeof value === 'string' ? new Date(value) : value;
    return this.table.prepare(key.member.property, typed);
  }
}

function wireKey(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
