import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, MigrationExecutor, QueryFailedError, type QueryRunner } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { migrationDataSourceOptions } from './data-source.options';

// How often an instance looks whether the one that migrates is done.
const WAIT_POLL_MS = 250;
// A migration that gave up on a lock (lock_timeout) runs again after 1 s, 2 s, 4 s, ...
const LOCK_RETRIES = 6;
const LOCK_RETRY_FIRST_MS = 1_000;
// PostgreSQL's lock_not_available: a statement gave up waiting for its lock.
const LOCK_NOT_AVAILABLE = '55P03';

/** What `migrate` runs: the service's migrations, or a spec's own. */
type MigrationOptions = Pick<ReturnType<typeof migrationDataSourceOptions>, 'migrations'>;

/**
 * Runs the pending migrations before the service opens its pool (SPEC 1.19), on connections of
 * their own (no statement timeout, the migration lock timeout).
 * - One instance at a time: on PostgreSQL the migrations run while an advisory lock keyed by
 *   the migrations table is held (it ends with a dead instance's connection). Instances that
 *   start meanwhile wait for it, then find nothing pending, and start on the migrated schema.
 * - Each migration runs in a transaction of its own (one that declares `transaction = false`,
 *   to build an index concurrently, in none), whose statements wait for a lock at most the
 *   lock timeout: a migration never queues live traffic behind it for longer. One that gave up
 *   is rolled back and run again after a growing wait; those before it stay applied.
 */
export async function migrate(database: DatabaseConfig, extra?: MigrationOptions): Promise<void> {
  const dataSource = new DataSource({ ...migrationDataSourceOptions(database), ...extra });
  await dataSource.initialize();
  try {
    if (database.type !== 'postgres') return await runPending(dataSource);
    const table = dataSource.driver.buildTableName('migrations', database.schema);
    const pooled = database.pooler === 'transaction';
    const lease = dataSource.createQueryRunner();
    try {
      await waitForTheLease(lease, table, pooled);
      await withLockRetries(() => runPending(dataSource));
    } finally {
      // Ended before the pool closes, though closing it would end it too.
      await (
        pooled ? lease.commitTransaction() : lease.query('SELECT pg_advisory_unlock_all()')
      ).catch(() => undefined);
      await lease.release();
    }
  } finally {
    await dataSource.destroy();
  }
}

async function runPending(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner.release();
  }
}

/**
 * Takes the migrations' lease on `lease`'s connection: a session-level advisory lock, which
 * holds no transaction open (a concurrent index build waits for every open transaction, its
 * own instance's included). Behind a transaction pooler a session lock would stay on a server
 * connection others borrow: there it is a transaction-level lock, in a transaction left open
 * until the connection is released (README, "Database migrations", says what that costs).
 * Polled, not waited for: another instance's migrations may take minutes, longer than any
 * lock timeout.
 */
async function waitForTheLease(lease: QueryRunner, table: string, pooled: boolean): Promise<void> {
  const take = pooled ? 'pg_try_advisory_xact_lock' : 'pg_try_advisory_lock';
  let waiting = false;
  for (;;) {
    if (pooled) await lease.startTransaction();
    const [{ leased }] = (await lease.query(`SELECT ${take}(hashtext($1)) AS leased`, [table])) as {
      leased: boolean;
    }[];
    if (leased) return;
    // Behind a pooler a waiting instance holds no server connection between its looks.
    if (pooled) await lease.rollbackTransaction();
    if (!waiting) new Logger('Migrations').log('waiting for another instance to migrate');
    waiting = true;
    await sleep(WAIT_POLL_MS);
  }
}

async function withLockRetries(run: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!lockNotAvailable(error) || attempt > LOCK_RETRIES) throw error;
      const wait = LOCK_RETRY_FIRST_MS * 2 ** (attempt - 1);
      new Logger('Migrations').warn({
        event: 'migration_lock_timeout',
        attempt,
        retry_in_ms: wait,
        reason: (error as Error).message,
      });
      await sleep(wait);
    }
  }
}

function lockNotAvailable(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string }).code === LOCK_NOT_AVAILABLE
  );
}
