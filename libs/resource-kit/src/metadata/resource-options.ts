import type { AccessLevel, CreationDeprecation, EntityClass, Operation } from './definition';

/** What `@Resource` takes: written by the decorator, read by metadata/definition.reader.ts. */
export interface ToManyOptions {
  target: () => EntityClass;
  /** The target's @ToOne property pointing back at this resource (e.g. `cartId`). */
  inverse: string;
  /** What the relationship holds: the OpenAPI operation that reads it says so. */
  description?: string;
}

export interface ResourceOptions {
  /** Plural type, equal to the path segment and the table name. */
  type: string;
  /** What the resource is: the OpenAPI document shows it on its schemas and operations. */
  description?: string;
  /**
   * The supported operations and who may use each; the others answer 405.
   * @example { list: 'public', read: 'public', create: 'admin', update: 'admin' }
   */
  access: Readonly<Partial<Record<Operation, AccessLevel>>>;
  /**
   * Entity property holding the owning user's id: non-admins see only their own rows. Or the
   * path to it through to-one references, for rows owned through a parent (SPEC 1.15).
   * @example 'userId'
   * @example 'orderId.userId' // an order item is its order's user's
   */
  owner?: string;
  /**
   * Scoped to the caller's tenant (SPEC 1.15): a read-only `tenant_id` set from the caller's
   * tenant, and every read, write, filter, reference check and unique value confined to it.
   * A cross-tenant operator names the tenant of what it creates (`tenant_id` in its input).
   * `'inherited'`: a table that tenant-scoped writes record into beside others (an audit
   * trail): a row takes the tenant of the write that records it, or of the caller that
   * creates it, and has none otherwise. A tenant's caller reads and writes the rows of its
   * own tenant only (a cross-tenant operator all of them); see `tenantlessRows`. The column
   * is the kit's, not a member.
   */
  tenant?: boolean | 'inherited';
  /**
   * With `tenant: 'inherited'`, whether the rows of no tenant are `'readable'` by every
   * tenant's callers too (an audit trail of shared writes), or `'hidden'` from them (the
   * default: an operator's own rows). No tenant's caller ever changes or deletes them.
   */
  tenantlessRows?: 'hidden' | 'readable';
  /** To-many relationships, read through GET /{type}/{id}/{name}. */
  toMany?: Readonly<Record<string, ToManyOptions>>;
  /**
   * Extra indexes (entity property names) for common filters and orders, e.g.
   * `[['status', 'createdAt', 'id']]`. The default order's index is always there.
   */
  indexes?: ReadonlyArray<readonly string[]>;
  /**
   * Keeps history: every create and update also writes a row of the revisions resource made
   * by `revisionsOf` (its `owner` property points back here).
   */
  history?: { target: () => EntityClass; owner: string };
  /**
   * A state machine on an enum attribute (entity property): for each state, the states it
   * may move to and the roles allowed to make that move. A move not listed is 409, a listed
   * one the caller's role may not make is 403.
   * @example { property: 'status', moves: { placed: { paid: ['admin'], cancelled: ['admin', 'customer'] } } }
   */
  transitions?: Transitions;
  /**
   * Idempotency-Key on POST (on unless `false`). `expiresWith` names a time attribute that
   * ends the stored answer's life early, and the answer is deleted with the resource: for
   * answers holding a secret, like a session's token.
   * @example { expiresWith: 'expiresAt' }
   */
  idempotency?: false | IdempotencyOptions;
  /**
   * Deprecates creating this resource (its data stays readable): POST still works and
   * answers `Deprecation` (and `Sunset` when given); the OpenAPI operation is deprecated.
   * @example { creation: { since: '2026-11-01', successor: 'Use POST /reviews instead', sunset: '2027-06-30' } }
   */
  deprecated?: { creation: CreationDeprecation };
  /**
   * Error statuses the resource's hooks add to an operation, with why, for the OpenAPI
   * document (the statuses the kit itself answers are derived).
   * @example { create: { 429: 'Too many failed logins (Retry-After says when to retry)' } }
   */
  answers?: Readonly<Partial<Record<Operation, Readonly<Record<number, string>>>>>;
}

export interface IdempotencyOptions {
  readonly expiresWith?: string;
}

export interface Transitions {
  readonly property: string;
  readonly moves: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}
