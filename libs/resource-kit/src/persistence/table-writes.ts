import type { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import {
  compileSelect,
  shapeKey,
  type CompiledSelect,
  type SqlDialect,
  type Subquery,
} from './select.compiler';
import { runStatement } from './typeorm-internals';
import type { PendingStatement } from './write.batch';

/** What the writes need of their table (persistence/resource-table.ts). */
export interface WritableTable {
  readonly name: string;
  readonly columns: readonly ColumnMetadata[];
  readonly dialect: SqlDialect;
  prepare(property: string, value: unknown): unknown;
  column(property: string): ColumnMetadata;
  quote(name: string): string;
  statementName(sql: string): string | undefined;
}

type Row = Record<string, unknown>;

/**
 * The write statements of one table, written once (per placeholder offset): every column of
 * the entity in a fixed order, so no statement reads the row back (the entity in hand is
 * the row).
 */
export class TableWrites<T extends object> {
  private readonly written = new Map<string, string>();
  // The WHERE EXISTS subqueries of conditional inserts, by the key of their INSERT.
  private readonly subqueries = new Map<string, CompiledSelect>();
  // The columns an INSERT names: a generated one (an increment) is the database's to fill.
  private readonly inserted: readonly ColumnMetadata[];

  constructor(private readonly table: WritableTable) {
    this.inserted = table.columns.filter((column) => !column.isGenerated);
  }

  /** Inserts every column of `entity`; an absent value takes its column's declared default. */
  async insert(manager: EntityManager, entity: T): Promise<void> {
    const { sql, values } = this.insertion(entity)(0);
    await runStatement(manager, sql, values, this.table.statementName(sql));
  }

  /**
   * The INSERT of `entity` as it is now, to run now or batched with others. Its defaults are
   * set on it at once, so that what the write answers and records holds them. With `onlyIf`,
   * the same statement inserts it only while such a row exists.
   */
  insertion(entity: T, onlyIf?: Subquery): PendingStatement {
    const record = withDefaults(entity as Row, this.inserted);
    const values = this.values(record, this.inserted);
    if (!onlyIf) {
      return (offset) => ({
        sql: this.sqlFor(`insert ${offset}`, () => this.insertSql(this.inserted, [], offset)),
        values,
      });
    }
    return (offset) => {
      const key = `insert ${offset} if ${onlyIf.table.name} ${shapeKey(onlyIf.shape)}`;
      let exists = this.subqueries.get(key);
      if (!exists) {
        const bindsBefore = offset + this.inserted.length;
        exists = compileSelect(onlyIf.shape, onlyIf.table, this.table.dialect, bindsBefore);
        this.subqueries.set(key, exists);
      }
      return {
        sql: this.sqlFor(key, () => this.conditionalInsertSql(exists.sql, offset)),
        values: [...values, ...exists.slots.map((slot) => onlyIf.values[slot])],
      };
    };
  }

  /**
   * The INSERT of `entity` numbered as the next `counter` among the rows with its `per` value
   * (revisions 1..n of one resource), counted by the same statement.
   */
  numberedInsertion(entity: T, counter: string, per: string): PendingStatement {
    const others = this.inserted.filter((column) => column.propertyName !== counter);
    const record = withDefaults(entity as Row, others);
    const values = [...this.values(record, others), this.table.prepare(per, record[per])];
    return (offset) => ({
      sql: this.sqlFor(`numbered ${counter} ${per} ${offset}`, () => {
        const next = this.table.dialect.placeholder(offset + others.length + 1);
        const count = `(SELECT COALESCE(MAX(${this.quoted(counter)}), 0) + 1 FROM ${this.table.name} WHERE ${this.quoted(per)} = ${next})`;
        return this.insertSql(others, [[this.quoted(counter), count]], offset);
      }),
      values,
    });
  }

  /** Writes every column of `entity` to its row (locked by the write that read it). */
  async update(manager: EntityManager, entity: T): Promise<void> {
    const record = entity as Row;
    const values = [...this.values(record, this.table.columns), record.id];
    const sql = this.sqlFor('update', () => {
      const { table } = this;
      const names = table.columns.map((column) => table.quote(column.databaseName));
      const assignments = names.map((name, i) => `${name} = ${table.dialect.placeholder(i + 1)}`);
      return `UPDATE ${table.name} SET ${assignments.join(', ')} ${this.byId(names.length + 1)}`;
    });
    await runStatement(manager, sql, values, this.table.statementName(sql));
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    const sql = this.sqlFor('delete', () => `DELETE FROM ${this.table.name} ${this.byId(1)}`);
    await runStatement(manager, sql, [id], this.table.statementName(sql));
  }

  // Written on first use: a table that only takes inserts (an outbox) needs no id column.
  private byId(placeholder: number): string {
    return `WHERE ${this.quoted('id')} = ${this.table.dialect.placeholder(placeholder)}`;
  }

  private insertSql(
    columns: readonly ColumnMetadata[],
    computed: [string, string][],
    offset: number,
  ): string {
    const names = [
      ...columns.map((c) => this.table.quote(c.databaseName)),
      ...computed.map(([name]) => name),
    ];
    const values = [
      ...columns.map((_, i) => this.table.dialect.placeholder(offset + i + 1)),
      ...computed.map(([, value]) => value),
    ];
    return `INSERT INTO ${this.table.name} (${names.join(', ')}) VALUES (${values.join(', ')})`;
  }

  // INSERT ... SELECT: PostgreSQL types the bare placeholders from the columns they fill.
  private conditionalInsertSql(exists: string, offset: number): string {
    const { dialect } = this.table;
    const names = this.inserted.map((c) => this.table.quote(c.databaseName));
    const values = this.inserted.map((_, i) => dialect.placeholder(offset + i + 1));
    return `INSERT INTO ${this.table.name} (${names.join(', ')}) SELECT ${values.join(', ')} WHERE EXISTS (${exists})`;
  }

  private sqlFor(key: string, write: () => string): string {
    let sql = this.written.get(key);
    if (!sql) {
      sql = write();
      this.written.set(key, sql);
    }
    return sql;
  }

  private values(record: Row, columns: readonly ColumnMetadata[]): unknown[] {
    return columns.map((column) =>
      this.table.prepare(column.propertyName, record[column.propertyName] ?? null),
    );
  }

  private quoted(property: string): string {
    return this.table.quote(this.table.column(property).databaseName);
  }
}

// What the database would fill in (a currency's default), set on the entity the response shows.
function withDefaults(record: Row, columns: readonly ColumnMetadata[]): Row {
  for (const column of columns) {
    const fallback = column.default as unknown;
    if (
      record[column.propertyName] === undefined &&
      fallback !== undefined &&
      typeof fallback !== 'function'
    ) {
      record[column.propertyName] = fallback;
    }
  }
  return record;
}
