import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Whether this PostgreSQL transaction now holds `table`'s lease: a transaction-level advisory
 * lock keyed by the table's schema and name, so one instance at a time works through it (an
 * outbox) and services in other schemas in parallel. It ends with the transaction, or with the
 * connection of an instance that died; it works through PgBouncer in transaction mode.
 */
export async function holdsTableLease(
  manager: EntityManager,
  table: EntityTarget<ObjectLiteral>,
): Promise<boolean> {
  const [{ leased }] = await manager.query<{ leased: boolean }[]>(
    'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS leased',
    [manager.connection.getMetadata(table).tablePath],
  );
  return leased;
}
