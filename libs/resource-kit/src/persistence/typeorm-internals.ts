import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Pool } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { QueryResult } from 'typeorm/query-runner/QueryResult';

/**
 * The one place the kit reaches below TypeORM's public API, and why:
 * - a read outside a transaction goes straight to the PostgreSQL driver's pg pool
 *   (`driver.master`): a query runner per statement, with its logging and event broadcasting,
 *   cost a tenth of a simple read, and the pool takes a statement name, which a runner does not;
 * - values are converted as the driver stores and hydrates them (`preparePersistentValue`,
 *   `prepareHydratedValue`), since the kit writes and reads rows with statements of its own.
 * These are checked against the TypeORM major they were written for, when the kit loads.
 */
const SUPPORTED_MAJOR = 1;
const typeOrmVersion = (
  JSON.parse(readFileSync(join(dirname(require.resolve('typeorm')), 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
if (Number(typeOrmVersion.split('.')[0]) !== SUPPORTED_MAJOR) {
  throw new Error(
    `resource-kit reads TypeORM ${SUPPORTED_MAJOR}.x internals (persistence/typeorm-internals.ts); this is TypeORM ${typeOrmVersion}`,
  );
}

/**
 * Runs a statement: through the transaction's runner inside a write; outside one, PostgreSQL
 * statements go straight to the driver's pool, by name when given; SQLite's one connection
 * takes a runner.
 */
export async function runStatement(
  manager: EntityManager,
  sql: string,
  values: readonly unknown[],
  name?: string,
): Promise<Pick<QueryResult, 'records'>> {
  const pool = manager.queryRunner ? undefined : postgresPool(manager.connection);
  if (pool) return { records: (await pool.query({ name, text: sql, values: [...values] })).rows };
  const runner: QueryRunner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return await runner.query(sql, [...values], true);
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
