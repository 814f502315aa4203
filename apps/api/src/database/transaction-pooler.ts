import { Client } from 'pg';

/**
 * The pg client the pool uses behind PgBouncer in transaction mode (DATABASE_POOLER), where a
 * session is a loan of one server connection for one transaction. Such a pooler refuses
 * startup parameters beyond the standard ones (Debian's 1.18 stops at `statement_timeout`
 * and `options`), and a `SET` would outlive the transaction on a connection another client
 * gets next. So the session settings of a direct connection become transaction-local ones,
 * sent with the `START TRANSACTION` of every TypeORM transaction, in the same round trip
 * (the simple query protocol takes several statements):
 * - the statement timeout, which also bounds lock waits;
 * - the time zone (nothing the service runs depends on it today: times are zone-less columns
 *   written and parsed by a process in UTC; kept so that a server-side `now()` would agree);
 * - the schema (DATABASE_SCHEMA) as `search_path`, for the migrations' unqualified names.
 * A statement outside a transaction (a read) runs under the role's or server's
 * `statement_timeout` (docs/operations.md says how to set it); its table names carry their
 * schema.
 */
export function transactionPoolerClient(
  statementTimeoutMs: number,
  schema?: string,
  lockTimeoutMs?: number,
): typeof Client {
  const begin = [
    'START TRANSACTION',
    `SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}`,
    // The migrations' connections (migrate.ts): a lock waited for longer fails the statement.
    ...(lockTimeoutMs === undefined
      ? []
      : [`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`]),
    "SET LOCAL TIME ZONE 'UTC'",
    // DATABASE_SCHEMA is a checked lower-case identifier.
    ...(schema ? [`SET LOCAL search_path = "${schema}"`] : []),
  ].join('; ');
  return class TransactionPoolerClient extends Client {
    // pg's overloads: (text | config, values?, callback?); TypeORM passes text and values.
    override query(...args: unknown[]): never {
      if (args[0] === 'START TRANSACTION') args[0] = begin;
      return (super.query as (...args: unknown[]) => never)(...args);
    }
  };
}
