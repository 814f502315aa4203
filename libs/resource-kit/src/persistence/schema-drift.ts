import type { DataSource } from 'typeorm';
import type { ResourceDefinition } from '../metadata/definition';

/** A table or column the entities declare and the database lacks: a migration not written. */
export interface SchemaDrift {
  table: string;
  /** Unset when the whole table is missing. */
  column?: string;
  /** The resource whose table it is, when it is one's. */
  resource?: string;
  /** The resource's member the column holds, on the wire (`cost_cents`). */
  member?: string;
  /** One phrase for a log line: `products.cost_cents (column "cost_cents" of "products")`. */
  what: string;
}

/**
 * What the entities of `dataSource` declare that its database lacks, tables and columns, in
 * the names of `resources` where the table is a resource's. It reads the catalogue once; types,
 * indexes and constraints are the migrations' own check (the generator diffs them all). A
 * column the database has and no entity declares is no drift: it is how an expanding change
 * begins (docs/operations.md).
 */
export async function schemaDrift(
  dataSource: DataSource,
  resources: readonly ResourceDefinition[],
): Promise<SchemaDrift[]> {
  const regular = dataSource.entityMetadatas.filter(
    (metadata) => metadata.tableType === 'regular' || metadata.tableType === 'junction',
  );
  const runner = dataSource.createQueryRunner();
  try {
    const tables = await runner.getTables(regular.map((metadata) => metadata.tablePath));
    const columnsOf = new Map(
      tables.map((table) => [
        tableName(table.name),
        new Set(table.columns.map((column) => column.name)),
      ]),
    );
    return regular.flatMap((metadata) => {
      const definition = resources.find((resource) => resource.entity === metadata.target);
      const existing = columnsOf.get(metadata.tableName);
      if (!existing) {
        const resource = definition?.type;
        const what = resource
          ? `${resource} (table "${metadata.tableName}")`
          : `table "${metadata.tableName}"`;
        return [{ table: metadata.tableName, resource, what }];
      }
      return metadata.columns
        .filter((column) => !column.isVirtual && !existing.has(column.databaseName))
        .map((column) => {
          const member = definition?.attributes.find(
            (attribute) => attribute.property === column.propertyName,
          )?.name;
          const where = `column "${column.databaseName}" of "${metadata.tableName}"`;
          return {
            table: metadata.tableName,
            column: column.databaseName,
            resource: definition?.type,
            member,
            what: member ? `${definition.type}.${member} (${where})` : where,
          };
        });
    });
  } finally {
    await runner.release();
  }
}

// TypeORM names a table of a PostgreSQL schema `schema.table`; the entities name it alone.
function tableName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
