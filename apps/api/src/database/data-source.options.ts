import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { transactionPoolerClient } from './transaction-pooler';
import { utcTimestamps } from './utc-timestamps';

// Bounded waits, so that a database outage becomes a quick error (503), never a hung request
// (the statement timeout, which also bounds lock waits, is configuration).
const CONNECT_TIMEOUT_MS = 5_000;
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * The one description of the service's database, shared by the app and the migration CLI
 * (ormconfig.ts). Migrations are per engine: PostgreSQL and SQLite speak different DDL.
 */
export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    migrations: [join(__dirname, 'migrations', database.type, '*.{js,ts}')],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
  };
  if (database.type === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: database.url,
      schema: database.schema,
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      extra: {
        max: 10,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // Timestamps read without postgres-date, the largest share of a page's CPU.
        types: utcTimestamps,
        ...sessionSettings(database, { statementTimeoutMs: database.statementTimeoutMs }),
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    enableWAL: true,
    timeout: SQLITE_BUSY_TIMEOUT_MS,
    // TypeORM turns foreign keys on and creates the file's folder itself.
  };
}

/**
 * The connections the migrations run on (migrate.ts), made and closed before the service's
 * pool: no statement timeout (an index built on a large table may take minutes), and a lock
 * timeout, so that a statement waiting for a lock live traffic holds gives up soon instead of
 * queueing that traffic behind itself.
 */
export function migrationDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const options = dataSourceOptions(database);
  if (database.type !== 'postgres' || options.type !== 'postgres') return options;
  const timeouts = { statementTimeoutMs: 0, lockTimeoutMs: database.migrationLockTimeoutMs };
  return {
    ...options,
    extra: {
      ...(options.extra as Record<string, unknown>),
      max: 2,
      ...sessionSettings(database, timeouts),
    },
  };
}

interface Timeouts {
  readonly statementTimeoutMs: number;
  readonly lockTimeoutMs?: number;
}

// Every session runs in UTC (times are stored in zone-less columns), under its timeouts and,
// when a schema is configured, finds its tables there. A transaction pooler takes none of
// these at connection: there, each transaction sets them.
function sessionSettings(
  database: PostgresConfig,
  { statementTimeoutMs, lockTimeoutMs }: Timeouts,
): Record<string, unknown> {
  const { schema } = database;
  if (database.pooler === 'transaction') {
    return { Client: transactionPoolerClient(statementTimeoutMs, schema, lockTimeoutMs) };
  }
  return {
    statement_timeout: statementTimeoutMs,
    ...(lockTimeoutMs !== undefined && { lock_timeout: lockTimeoutMs }),
    options: ['-c timezone=UTC', ...(schema ? [`-c search_path=${schema}`] : [])].join(' '),
  };
}

type PostgresConfig = Extract<DatabaseConfig, { type: 'postgres' }>;
