import type { EntityManager } from 'typeorm';
import { addressKeyOf } from '../http/client-address';
import type { Caller } from '../auth/caller';
import type { Claim } from '../idempotency/idempotency.store';
import type { EntityClass } from '../metadata/definition';

/** Who is asking; filled by the auth layer, read by scope and access hooks. */
export interface RequestContext {
  readonly caller?: Caller;
  /**
   * Where the request came from: Express's request, whose `ip` (X-Forwarded-For from a trusted
   * gateway) is worked out when read. Limits read it through `clientAddressOf(context)`.
   */
  readonly origin?: { readonly ip?: string };
  /** The request's If-Match: PATCH and DELETE write only while it names the current ETag. */
  readonly ifMatch?: string;
  /** The request's claimed Idempotency-Key: its create stores the answer with the write. */
  readonly idempotency?: Claim;
}

/**
 * The client address a request's limits count, worked out only here: Express's `ip` runs the
 * trusted-proxy walk on each read, and most requests have no limit that asks (reading it for
 * every request was 4 % of a single read's CPU).
 */
export function clientAddressOf(context: RequestContext): string | undefined {
  return addressKeyOf(context.origin?.ip);
}

/** A write in progress: its request and its transaction. */
export interface WriteContext extends RequestContext {
  readonly manager: EntityManager;
  /**
   * Inserts a row (an audit event, an outbox entry) together with the write's own last
   * statements, in one round trip on PostgreSQL; it commits or rolls back with the write.
   * `entity` is a declared resource or any other TypeORM entity; its generated columns (an
   * increment) are left to the database. The row is taken as it is when recorded; nothing in
   * the transaction sees it before the write's work is done. With `onlyIf`, the row is
   * inserted only if, when the statement runs, a row of `onlyIf.exists` matches
   * `onlyIf.where` (an outbox entry only where some subscriber wants it).
   */
  record(entity: EntityClass, row: object, onlyIf?: RecordCondition): void;
}

/**
 * A row that must exist for a recorded row to be inserted: one of `exists` whose every
 * member named in `where` equals its value; `[null, value]` matches that value or an empty
 * column, `[null]` an empty one.
 */
export interface RecordCondition {
  readonly exists: EntityClass;
  readonly where: Readonly<Record<string, unknown>>;
}
