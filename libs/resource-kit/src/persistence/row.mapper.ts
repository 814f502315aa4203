/** One column as the mapper reads it, in the select list's order. */
export interface MappedColumn {
  readonly property: string;
  /** The driver's value as the entity holds it (a Date for a time, a boolean for 0/1); none when equal. */
  readonly hydrate?: (value: unknown) => unknown;
}

/** A row as the kit reads it: its columns' values in the select list's order. */
export type RowValues = readonly unknown[];

/**
 * Builds, once per table, the function that turns a row into an object of the entity's class
 * (its prototype, so accessors such as a polymorphic reference work). Its body is generated
 * with each property named, as a hand-written mapper would be: V8 stores under a name known
 * at compile time several times faster than under one a loop varies, for every row of a page.
 * The names are the entity's own properties, written as JSON string literals.
 */
export function createRowMapper<T extends object>(
  prototype: object,
  columns: readonly MappedColumn[],
): (row: RowValues) => T {
  const hydrators = columns.map((column) => column.hydrate);
  const stores = columns.map(({ property, hydrate }, index) => {
    const target = `entity[${JSON.stringify(property)}]`;
    return hydrate
      ? `value = row[${index}];\n${target} = value === null || value === undefined ? null : hydrators[${index}](value);`
      : `${target} = row[${index}];`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the names are the entity's, quoted
  const compile = new Function(
    'prototype',
    'hydrators',
    `return function mapRow(row) {\nconst entity = Object.create(prototype);\nlet value;\n${stores.join('\n')}\nreturn entity;\n};`,
  ) as (prototype: object, hydrators: unknown[]) => (row: RowValues) => T;
  return compile(prototype, hydrators);
}
