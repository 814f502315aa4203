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
        ...sessionSettings(database),
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

// Every session runs in UTC (times are stored in zone-less columns), under the statement
// timeout and, when a schema is configured, finds its tables there. A transaction pooler
// takes none of these at connection: there, each transaction sets them.
function sessionSettings(database: PostgresConfig): Record<string, unknown> {
  if (database.pooler === 'transaction') {
    return { Client: transactionPoolerClient(database.statementTimeoutMs, database.schema) };
  }
  const { schema } = database;
  return {
    statement_timeout: database.statementTimeoutMs,
    options: ['-c timezone=UTC', ...(schema ? [`-c search_path=${schema}`] : [])].join(' '),
  };
}

type PostgresConfig = Extract<DatabaseConfig, { type: 'postgres' }>;
