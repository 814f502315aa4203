/** The operations a resource can support, one per verb and path shape. */
export const OPERATIONS = ['list', 'create', 'read', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Who may use an operation: anyone, any authenticated caller, or administrators only. */
export type AccessLevel = 'public' | 'authenticated' | 'admin';

/** Who may read or write a member (SPEC 1.16): an access level, or the row's owner. */
export type MemberLevel = AccessLevel | 'owner';

// From the least a caller needs to the most.
const ACCESS_RANK: Readonly<Record<MemberLevel, number>> = {
  public: 0,
  authenticated: 1,
  owner: 2,
  admin: 3,
};

/** Whether a caller of level `has` meets `needed` (none needed: `public`). */
export function meets(has: MemberLevel, needed: MemberLevel = 'public'): boolean {
  return ACCESS_RANK[has] >= ACCESS_RANK[needed];
}

export type AttributeType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'time'
  | 'enum'
  /** A list of ids of `reference.target` resources: create input only (`cart_item_ids`). */
  | 'ids';

/** When a member may be written: on create, on patch, both, or never (read-only). */
export interface Writability {
  readonly create: boolean;
  readonly patch: boolean;
}

/** When a member appears in responses. */
export type Visibility = 'always' | 'never' | 'on-create';

export type EntityClass<T = object> = abstract new (...args: never[]) => T;

/** One attribute of a resource, as the wire sees it. */
export interface AttributeDefinition {
  /** Wire name (snake_case, or camelCase when the service chose it). */
  readonly name: string;
  /** Entity property that holds the value. */
  readonly property: string;
  /** What the member means, for the API's readers (the OpenAPI document). */
  readonly description?: string;
  readonly type: AttributeType;
  readonly values?: readonly string[];
  /** A stricter string format (`email`). */
  readonly format?: 'email';
  readonly nullable: boolean;
  /** Must be present on create. */
  readonly required: boolean;
  readonly writable: Writability;
  readonly output: Visibility;
  /** Has a column; attributes without one (a password, a token) cannot be filtered or ordered. */
  readonly stored: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** The attribute names a to-one relationship (`cart_id` for `cart`). */
  readonly reference?: ReferenceDefinition;
  /** Declared with an index on (its column, id). */
  readonly indexed?: boolean;
  /** Declared with a trigram index for `contains` (PostgreSQL). */
  readonly searchable?: boolean;
  /** Who reads it, when not everyone the resource's access lets read (SPEC 1.16). */
  readonly readableBy?: MemberLevel;
  /** Who writes it, when not everyone the resource's access lets write (SPEC 1.16). */
  readonly writableBy?: MemberLevel;
}

export interface ReferenceDefinition {
  /** Relationship name (`cart`), the path segment of GET /{type}/{id}/cart. */
  readonly relationship: string;
  readonly target: () => EntityClass;
}

export interface ToManyDefinition {
  /** Relationship name and path segment (`cart_items`). */
  readonly name: string;
  readonly target: () => EntityClass;
  /** Property of the target entity that holds the owner's id. */
  readonly inverse: string;
  readonly description?: string;
}

/**
 * A polymorphic reference: `{type, id}` on the wire (the one object attribute the convention
 * allows), two columns in the table. Read-only; filtered as `name.type` and `name.id`.
 */
export interface PolymorphicDefinition {
  readonly name: string;
  readonly description?: string;
  readonly property: string;
  readonly typeProperty: string;
  readonly idProperty: string;
  readonly nullable: boolean;
}

/** The frozen, complete description of a resource; everything downstream reads only this. */
export interface ResourceDefinition {
  readonly type: string;
  readonly entity: EntityClass;
  /** What the resource is, for the API's readers (the OpenAPI document). */
  readonly description?: string;
  /** Set when creating this resource is deprecated in favour of a successor (SPEC 1.9). */
  readonly deprecation?: CreationDeprecation;
  /**
   * Error statuses the resource's own hooks add to an operation, each with why (a log-in's
   * 401 and 429): the OpenAPI document lists them beside those the kit derives.
   */
  readonly answers: ReadonlyMap<Operation, Readonly<Record<number, string>>>;
  /** The supported operations (others answer 405) and who may use each. */
  readonly access: ReadonlyMap<Operation, AccessLevel>;
  readonly operations: ReadonlySet<Operation>;
  /**
   * Entity property holding the owning user's id (`id` for users themselves), or the path to
   * it through to-one references (`orderId.userId`). Callers other than administrators see and
   * change only their own rows in non-public operations.
   */
  readonly owner?: string;
  /**
   * Confined to the caller's tenant, held in its `tenantId` property (SPEC 1.15); with
   * `'inherited'`, rows may be of no tenant (ResourceOptions.tenant).
   */
  readonly tenant: boolean | 'inherited';
  /** Whether tenant callers read the rows of no tenant of an inherited resource. */
  readonly tenantlessRows: 'hidden' | 'readable';
  readonly attributes: readonly AttributeDefinition[];
  readonly attributeByName: ReadonlyMap<string, AttributeDefinition>;
  readonly toOne: ReadonlyMap<string, AttributeDefinition>;
  readonly toMany: ReadonlyMap<string, ToManyDefinition>;
  readonly polymorphic: readonly PolymorphicDefinition[];
  readonly history?: { readonly target: () => EntityClass; readonly owner: string };
  /** Idempotency-Key on POST: off (`false`), or on with its options. */
  readonly idempotency: false | { readonly expiresWith?: string };
  readonly transitions?: {
    readonly property: string;
    readonly moves: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  };
}

/**
 * Orders definitions by type, code unit by code unit: the published documents list resources
 * in the same order on every machine, and no locale data (ICU's collation tables, about
 * 2 MiB resident) is loaded for it.
 */
export function byType(a: ResourceDefinition, b: ResourceDefinition): number {
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/** A deprecated creation: since when, what replaces it, and when it may stop working. */
export interface CreationDeprecation {
  /** The day it was deprecated (`YYYY-MM-DD`, UTC). */
  readonly since: string;
  /** The successor, in words (`Use POST /reviews instead`). */
  readonly successor: string;
  /** The day after which creation may stop working (`YYYY-MM-DD`, UTC). */
  readonly sunset?: string;
}

/** The column of every id and reference: a UUID's 36 characters. */
export const ID_COLUMN = { type: 'varchar', length: 36 } as const;
