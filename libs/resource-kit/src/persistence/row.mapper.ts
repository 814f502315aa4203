/** One column as the mapper reads it: the row key is the entity property (the SELECT's alias). */
export interface MappedColumn {
  readonly property: string;
  /** The driver's value as the entity holds it (a Date for a time, a boolean for 0/1); none when equal. */
  readonly hydrate?: (value: unknown) => unknown;
}

export type Row = Record<string, unknown>;

/**
 * Builds, once per table, the function that turns a row into an object of the entity's class
 * (its prototype, so accessors such as a polymorphic reference work), with no per-row
 * metadata lookups.
 */
export function createRowMapper<T extends object>(
  prototype: object,
  columns: readonly MappedColumn[],
): (row: Row) => T {
  const plain = columns.filter((column) => !column.hydrate).map((column) => column.property);
  const converted = columns.filter((column) => column.hydrate);
  return (row) => {
    const entity = Object.create(prototype) as Row;
    for (const property of plain) entity[property] = row[property];
    for (const { property, hydrate } of converted) {
      const value = row[property];
      entity[property] = value === null || value === undefined ? null : hydrate!(value);
    }
    return entity as T;
  };
}
