import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DatabaseConfig, loadConfig } from '../../apps/api/src/config/app-config';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database of its own for one spec file, and the way to throw it away afterwards. */
export interface TestDatabase {
  config: DatabaseConfig;
  /** The environment variables that select this database, for specs that start the service as a process. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the engine this jest project tests (TEST_DATABASE), or on
 * `engine`: a fresh SQLite file, or a fresh PostgreSQL schema, so that runs and spec files
 * never collide.
 */
export async function createTestDatabase(
  engine = process.env.TEST_DATABASE ?? 'sqlite',
): Promise<TestDatabase> {
  if (engine === 'postgres') return createPostgresSchema();
  if (engine === 'sqlite') return createSqliteFile();
  throw new Error(`TEST_DATABASE must be sqlite or postgres, not ${engine}`);
}

function createSqliteFile(): TestDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'api-e2e-'));
  const path = join(folder, 'api.sqlite');
  const env = { SQLITE_PATH: path };
  return {
    config: databaseOf(env),
    env,
    drop: () => {
      rmSync(folder, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

async function createPostgresSchema(): Promise<TestDatabase> {
  const schema = `e2e_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withClient((client) => client.query(`CREATE SCHEMA "${schema}"`));
  const env: Record<string, string> = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  // The e2e:pgbouncer project: every service reaches PostgreSQL through a transaction pooler.
  if (process.env.TEST_DATABASE_POOLER) env.DATABASE_POOLER = process.env.TEST_DATABASE_POOLER;
  return {
    config: databaseOf(env),
    env,
    drop: () => withClient((client) => client.query(`DROP SCHEMA "${schema}" CASCADE`)),
  };
}

// The service's own reading of these variables, defaults included.
function databaseOf(env: Record<string, string>): DatabaseConfig {
  return loadConfig({ NODE_ENV: 'test', ...env }).database;
}

/** Runs `work` on a client of the test server, outside any service's pool. */
export async function withClient(work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL): ${String(error)}`,
    );
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
