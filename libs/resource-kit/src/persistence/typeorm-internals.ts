import { dirname } from 'node:path';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { QueryFailedError, type DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { assertLibraryMajor } from './library-internals';
import { statementOf } from './pg-statements';
import type { RowValues } from './row.mapper';

type PgRows = QueryResult<unknown[]>;

/**
 * The one place the kit reaches below TypeORM's public API, and why:
 * - a read outside a transaction goes straight to the PostgreSQL driver's pg pool
 *   (`driver.master`): a query runner per statement, with its logging and event broadcasting,
 *   cost a tenth of a simple read, and the pool takes a statement name, which a runner does not;
 * - values are converted as the driver stores and hydrates them (`preparePersistentValue`,
 *   `prepareHydratedValue`), since the kit writes and reads rows with statements of its own.
 * These are checked against the TypeORM major they were written for, when the kit loads.
 */
assertLibraryMajor(
  'TypeORM',
  dirname(require.resolve('typeorm')),
  1,
  'persistence/typeorm-internals.ts',
);

/**
 * Runs a statement; its rows are arrays of their columns, in the select list's order. On
 * PostgreSQL it goes straight to pg, by name when given (PostgreSQL then parses and plans it
 * once per connection): outside a transaction to the driver's pool, inside one to the
 * transaction's connection, its failures wrapped as the runner wraps them. Unnamed statements
 * inside a transaction, and SQLite's, go through a TypeORM query runner, whose rows are objects
 * keyed in the select list's order (the kit's aliases are property names, never integers,
 * which JavaScript would order first).
 */
export async function runStatement(
  manager: EntityManager,
  sql: string,
  values: readonly unknown[],
  name?: string,
): Promise<RowValues[]> {
  const pool = manager.queryRunner ? undefined : postgresPool(manager.connection);
  if (pool) {
    // pg-pool checks a client out, watches it for errors and releases it, as for any query;
    // given a Query, it answers with the query's result (typed as the Query itself).
    const result = pool.query(statementOf(sql, values, name)) as unknown as Promise<PgRows>;
    return (await result).rows;
  }
  if (name && manager.queryRunner instanceof PostgresQueryRunner) {
    const client = (await manager.queryRunner.connect()) as PoolClient;
    try {
      const result = await new Promise<PgRows>((resolve, reject) => {
        client.query(
          statementOf(sql, values, name, (error, done) => (error ? reject(error) : resolve(done))),
        );
      });
      return result.rows;
    } catch (error) {
      throw new QueryFailedError(sql, [...values], error as Error);
    }
  }
  const runner: QueryRunner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const { records } = await runner.query(sql, [...values], true);
    return (records as Record<string, unknown>[]).map((record) => Object.values(record));
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

/** A value as the driver stores it in `column` (times, booleans on SQLite). */
export function storedValue(
  dataSource: DataSource,
  value: unknown,
  column: ColumnMetadata,
): unknown {
  return dataSource.driver.preparePersistentValue(value, column) as unknown;
}

/** A value read from `column` as the entity holds it. */
export function entityValue(
  dataSource: DataSource,
  value: unknown,
  column: ColumnMetadata,
): unknown {
  return dataSource.driver.prepareHydratedValue(value, column) as unknown;
}

function postgresPool(dataSource: DataSource): Pool | undefined {
  return dataSource.driver instanceof PostgresDriver
    ? (dataSource.driver.master as Pool)
    : undefined;
}
