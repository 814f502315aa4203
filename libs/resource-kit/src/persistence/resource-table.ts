import type { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityClass } from '../metadata/definition';
import { createRowMapper, MappedColumn, RowValues } from './row.mapper';
import { dialectOf } from './sql-dialects';
import {
  compileSelect,
  CompiledSelect,
  SelectShape,
  shapeKey,
  SqlDialect,
  TableSql,
} from './select.compiler';
import { statementNameOf } from './statement-names';
import { TableWrites } from './table-writes';
import { entityValue, runStatement, storedValue } from './typeorm-internals';

export const ALIAS = 'resource';

/** A compiled shape and, when it has one, the name of its prepared statement. */
type PreparedSelect = CompiledSelect & { readonly name?: string };
// Column types the drivers already return as the entity holds them.
const AS_RETURNED = new Set<unknown>(['varchar', 'text', 'integer', 'int', 'double precision']);
// Distinct query shapes kept per table, so that clients varying filters cannot grow it forever.
const MAX_SHAPES = 500;

/**
 * One resource's table, resolved from TypeORM's metadata once: quoted names, each query shape
 * compiled once (then only values are bound), the row mapper and the write statements.
 * Statements go straight to the driver through the manager's query runner.
 */
export class ResourceTable<T extends object = object> {
  readonly sql: TableSql;
  readonly dialect: SqlDialect;
  /** `"schema"."table"` */
  readonly name: string;
  readonly columns: readonly ColumnMetadata[];
  readonly writes: TableWrites<T>;
  private readonly byProperty: ReadonlyMap<string, ColumnMetadata>;
  private readonly shapes = new Map<string, PreparedSelect>();
  private readonly mapRow: (row: RowValues) => T;
  /** An `idsOnly` shape's rows: entities holding their id alone. */
  private readonly mapId: (row: RowValues) => T;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityClass<T>,
    /** Whether statements are prepared by name (kit option `namedStatements`). */
    private readonly namedStatements = true,
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.columns = metadata.columns;
    this.byProperty = new Map(this.columns.map((column) => [column.propertyName, column]));
    this.name = metadata.tablePath.split('.').map(this.quote).join('.');
    this.dialect = dialectOf(dataSource);
    const qualified = (column: ColumnMetadata) =>
      `${this.quote(ALIAS)}.${this.quote(column.databaseName)}`;
    this.sql = {
      from: `${this.name} ${this.quote(ALIAS)}`,
      alias: this.quote(ALIAS),
      selectList: this.columns
        .map((column) => `${qualified(column)} AS ${this.quote(column.propertyName)}`)
        .join(', '),
      column: (property) => qualified(this.column(property)),
      name: this.name,
      columnAs: (alias, property) => `${alias}.${this.quote(this.column(property).databaseName)}`,
    };
    this.mapRow = createRowMapper<T>(entity.prototype as object, this.mapped());
    this.mapId = createRowMapper<T>(entity.prototype as object, [{ property: 'id' }]);
    this.writes = new TableWrites(this);
  }

  /** Runs a SELECT of this shape; `values` in shape order, already prepared (see `prepare`). */
  async select(
    manager: EntityManager,
    shape: SelectShape,
    values: readonly unknown[],
    within: readonly unknown[] = [],
  ): Promise<T[]> {
    const compiled = this.compiled(shape);
    const bound = [...within, ...compiled.slots.map((slot) => values[slot])];
    const rows = await runStatement(manager, compiled.sql, bound, compiled.name);
    return rows.map(shape.idsOnly ? this.mapId : this.mapRow);
  }

  /** A value as the driver stores it in the column of `property` (times, booleans on SQLite). */
  prepare(property: string, value: unknown): unknown {
    return storedValue(this.dataSource, value, this.column(property));
  }

  column(property: string): ColumnMetadata {
    const column = this.byProperty.get(property);
    if (!column) throw new Error(`${this.name} has no column for ${property}`);
    return column;
  }

  readonly quote = (name: string): string => this.dataSource.driver.escape(name);

  /** The name to prepare `sql` by on PostgreSQL, unless names are off (behind a pooler). */
  statementName(sql: string): string | undefined {
    return this.namedStatements ? statementNameOf(sql) : undefined;
  }

  private compiled(shape: SelectShape): PreparedSelect {
    // A scope hook's subquery may differ per caller: compiled each time, not kept.
    if (shape.within) return compileSelect(shape, this.sql, this.dialect);
    const key = shapeKey(shape);
    let compiled = this.shapes.get(key);
    if (!compiled) {
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      const sql = compileSelect(shape, this.sql, this.dialect);
      compiled = { ...sql, name: this.statementName(sql.sql) };
      this.shapes.set(key, compiled);
    }
    return compiled;
  }

  // The columns in the select list's order, which the rows' values follow.
  private mapped(): MappedColumn[] {
    return this.columns.map((column) =>
      AS_RETURNED.has(column.type) && !column.transformer
        ? { property: column.propertyName }
        : {
            property: column.propertyName,
            hydrate: (value: unknown) => entityValue(this.dataSource, value, column),
          },
    );
  }
}
