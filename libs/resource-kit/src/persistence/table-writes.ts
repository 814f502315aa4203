import type { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { ResourceTable } from './resource-table';

type Row = Record<string, unknown>;

/**
 * The write statements of one table, written once: every column of the entity in a fixed
 * order, so no statement reads the row back (the entity in hand is the row).
 */
export class TableWrites<T extends object> {
  private readonly insertSql: string;
  private readonly updateSql: string;
  private readonly deleteSql: string;
  private readonly numbered = new Map<string, string>();

  constructor(private readonly table: ResourceTable<T>) {
    const names = table.columns.map((column) => table.quote(column.databaseName));
    const placeholders = names.map((_, i) => table.dialect.placeholder(i + 1));
    const byId = (index: number) =>
      `WHERE ${this.quoted('id')} = ${table.dialect.placeholder(index)}`;
    this.insertSql = `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${placeholders.join(', ')})`;
    const assignments = names.map((name, i) => `${name} = ${placeholders[i]}`);
    this.updateSql = `UPDATE ${table.name} SET ${assignments.join(', ')} ${byId(names.length + 1)}`;
    this.deleteSql = `DELETE FROM ${table.name} ${byId(1)}`;
  }

  /** Inserts every column of `entity`; an absent value takes its column's declared default. */
  async insert(manager: EntityManager, entity: T): Promise<void> {
    const record = withDefaults(entity as Row, this.table.columns);
    await this.table.run(manager, this.insertSql, this.values(record, this.table.columns));
  }

  /**
   * Inserts `entity` numbered as the next `counter` among the rows with its `per` value
   * (revisions 1..n of one resource), counted by the same statement.
   */
  async insertNumbered(manager: EntityManager, entity: T, counter: string, per: string) {
    const others = this.table.columns.filter((column) => column.propertyName !== counter);
    const key = `${counter} ${per}`;
    let sql = this.numbered.get(key);
    if (!sql) {
      sql = this.numberedInsert(others, counter, per);
      this.numbered.set(key, sql);
    }
    const record = withDefaults(entity as Row, others);
    const values = [...this.values(record, others), this.table.prepare(per, record[per])];
    await this.table.run(manager, sql, values);
  }

  /** Writes every column of `entity` to its row (locked by the write that read it). */
  async update(manager: EntityManager, entity: T): Promise<void> {
    const record = entity as Row;
    const values = [...this.values(record, this.table.columns), record.id];
    await this.table.run(manager, this.updateSql, values);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.table.run(manager, this.deleteSql, [id]);
  }

  private numberedInsert(others: readonly ColumnMetadata[], counter: string, per: string) {
    const { dialect, name } = this.table;
    const next = `(SELECT COALESCE(MAX(${this.quoted(counter)}), 0) + 1 FROM ${name} WHERE ${this.quoted(per)} = ${dialect.placeholder(others.length + 1)})`;
    const names = [
      ...others.map((column) => this.table.quote(column.databaseName)),
      this.quoted(counter),
    ];
    const values = [...others.map((_, i) => dialect.placeholder(i + 1)), next];
    return `INSERT INTO ${name} (${names.join(', ')}) VALUES (${values.join(', ')})`;
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
