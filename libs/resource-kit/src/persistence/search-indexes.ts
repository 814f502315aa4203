import type { DataSource } from 'typeorm';
import { declaredMembers } from '../metadata/member-declarations';
import { snakeCase } from '../metadata/naming';
import { POSTGRES_DIALECT } from './sql-dialects';

/** A trigram index serving `contains` on one string column (PostgreSQL). */
export interface SearchIndex {
  readonly name: string;
  readonly table: string;
  readonly column: string;
}

/** The name of the index that serves `contains` on `property` of the resource `type`. */
export function searchIndexName(type: string, property: string): string {
  return `${type}_${snakeCase(property)}_search`;
}

/** The search indexes that the entities of `dataSource` declare (`searchable` attributes). */
export function declaredSearchIndexes(dataSource: DataSource): SearchIndex[] {
  return dataSource.entityMetadatas.flatMap((metadata) =>
    declaredMembers(metadata.target as { prototype: object })
      .filter((member) => member.searchable)
      .map((member) => ({
        name: searchIndexName(metadata.tableName, member.property),
        table: metadata.tableName,
        column: metadata.findColumnWithPropertyName(member.property)!.databaseName,
      })),
  );
}

/**
 * The migration of one search index. The index holds exactly the expression that `contains`
 * compares, so the planner can use it. pg_trgm is a trusted extension (the database owner
 * may create it); it goes to `public`, once per database, where every schema finds it.
 */
export function searchIndexMigration({ name, table, column }: SearchIndex): {
  up: string[];
  down: string[];
} {
  const expression = POSTGRES_DIALECT.lower(`"${column}"`);
  return {
    up: [
      'CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public',
      `CREATE INDEX IF NOT EXISTS "${name}" ON "${table}" USING gin (${expression} public.gin_trgm_ops)`,
    ],
    down: [`DROP INDEX "${name}"`],
  };
}
