import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';

interface DatabaseFailure {
  status: number;
  messages: readonly string[];
  headers?: Readonly<Record<string, string>>;
}

const RETRY_AFTER = { 'Retry-After': '5' };
// PostgreSQL SQLSTATEs and node/pg connection error codes that mean "database unreachable",
// besides PostgreSQL's class 08 (connection exceptions).
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  // Shut down by an administrator or a failover; after another process crashed; starting.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // A write that reached a standby: the primary is changing (a failover's first second).
  '25006',
  'SQLITE_BUSY',
]);

/**
 * Maps what the database refused to its HTTP meaning: a unique value taken and a foreign key
 * in the way (a delete blocked by dependents) are 409, an unreachable database is 503.
 * Anything else stays a 500.
 */
export function databaseFailure(exception: unknown): DatabaseFailure | undefined {
  // TypeORM let go of a connection that died under a transaction before it could commit.
  if (exception instanceof QueryRunnerAlreadyReleasedError) return UNREACHABLE;
  const code = driverCode(exception);
  // pg reports a connection cut mid-query without a code ("Connection terminated unexpectedly").
  if (code === undefined) return isLostConnection(exception) ? UNREACHABLE : undefined;
  if (isUniqueViolation(exception)) {
    return { status: 409, messages: ['a resource with this unique value already exists'] };
  }
  if (isForeignKeyViolation(exception)) {
    return { status: 409, messages: ['the change conflicts with related resources'] };
  }
  if (
    UNAVAILABLE.has(code) ||
    code.startsWith('08') ||
    /connection|timeout/i.test(String((exception as Error).message))
  ) {
    return UNREACHABLE;
  }
  return undefined;
}

/** A unique value (a primary key included) another writer stored first. */
export function isUniqueViolation(exception: unknown): boolean {
  const code = driverCode(exception);
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** A foreign key refused the change: a delete blocked by rows that point at the row. */
export function isForeignKeyViolation(exception: unknown): boolean {
  const code = driverCode(exception);
  return (
    code === '23503' ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    (code !== undefined && isSqliteRestrict(code, exception))
  );
}

const UNREACHABLE: DatabaseFailure = {
  status: 503,
  messages: ['the database is unavailable; try again later'],
  headers: RETRY_AFTER,
};

function isLostConnection(exception: unknown): boolean {
  if (exception instanceof QueryFailedError) return /connection|timeout/i.test(exception.message);
  // Reads outside a transaction go straight to pg's pool, which words these without a code.
  return exception instanceof Error && PG_LOST_CONNECTION.test(exception.message);
}

const PG_LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

// SQLite reports ON DELETE RESTRICT as a trigger constraint, with a foreign key message.
function isSqliteRestrict(code: string, exception: unknown): boolean {
  return (
    code === 'SQLITE_CONSTRAINT_TRIGGER' &&
    /FOREIGN KEY/i.test(String((exception as Error).message))
  );
}

/** The driver's error code (a SQLSTATE, a node error code, an SQLite code), if any. */
export function driverCode(exception: unknown): string | undefined {
  const error = (exception instanceof QueryFailedError ? exception.driverError : exception) as
    { code?: unknown } | undefined;
  return typeof error?.code === 'string' ? error.code : undefined;
}
