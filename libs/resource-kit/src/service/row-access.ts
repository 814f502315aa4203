import { ADMIN_ROLE, mayUse, type Caller } from '../auth/caller';
import type {
  AccessLevel,
  EntityClass,
  Operation,
  ResourceDefinition,
} from '../metadata/definition';
import type { ResourceTable } from '../persistence/resource-table';
import type { Conditions } from '../persistence/selection';

/** A declared resource as the predicates reach it through a reference: its rules, its table. */
export interface ReachedResource {
  readonly definition: ResourceDefinition;
  readonly table: ResourceTable<object>;
}

/** The declared resource an entity class is (the registry's, in the service). */
export type ResourceOf = (entity: EntityClass) => ReachedResource;

const isRead = (operation: Operation): boolean => operation === 'read' || operation === 'list';

/**
 * The rows of a resource related to those a filter reads that the caller may read (SPEC
 * 1.15): none when the caller may not read the resource at all, else its tenant's and its
 * own, as a read of it would.
 */
export function readableRows(
  rows: Conditions,
  definition: ResourceDefinition,
  caller: Caller | undefined,
  resourceOf: ResourceOf,
): void {
  const { access } = definition;
  const level = access.get('read') ?? access.get('list');
  if (!mayUse(level, caller)) return void rows.none();
  tenantRows(rows, definition, caller, 'read');
  ownRows(rows, definition, caller, level, resourceOf);
}

/**
 * A tenant-scoped resource's rows of the caller's tenant only; all for a cross-tenant
 * operator, none for a caller without a tenant (SPEC 1.15). An inherited one's rows of no
 * tenant are those of callers without a tenant, and read by a tenant's callers only where the
 * resource declares them readable: a tenant never changes them.
 */
export function tenantRows(
  rows: Conditions,
  { tenant, tenantlessRows }: ResourceDefinition,
  caller: Caller | undefined,
  operation: Operation,
): void {
  if (!tenant || caller?.tenant === null) return;
  if (caller?.tenant === undefined) {
    if (tenant === 'inherited') rows.empty('tenantId');
    else rows.none();
  } else if (tenant === 'inherited' && tenantlessRows === 'readable' && isRead(operation)) {
    rows.equalsOrEmpty('tenantId', caller.tenant);
  } else rows.equals('tenantId', caller.tenant);
}

/**
 * The declared owner's rows only (at the end of its owner path, through parents), unless the
 * operation is public or the caller an administrator; an anonymous caller owns nothing.
 */
export function ownRows(
  rows: Conditions,
  definition: ResourceDefinition,
  caller: Caller | undefined,
  level: AccessLevel | undefined,
  resourceOf: ResourceOf,
): void {
  const { owner } = definition;
  if (!owner || level === 'public' || caller?.role === ADMIN_ROLE) return;
  ownedBy(rows, definition, ownerPathOf(owner), caller?.id ?? null, resourceOf);
}

/** Rows of `definition` whose owner, at the end of `path` (its `owner`), is `userId`. */
export function ownedBy(
  rows: Conditions,
  definition: ResourceDefinition,
  path: readonly string[],
  userId: string | null,
  resourceOf: ResourceOf,
): void {
  const [property, ...rest] = path;
  if (rest.length === 0) return void rows.equals(property, userId);
  const reference = definition.attributes.find((a) => a.property === property)?.reference;
  const parent = resourceOf(reference!.target());
  rows.related({ table: parent.table, near: property, far: 'id' }, (related) =>
    ownedBy(related, parent.definition, rest, userId, resourceOf),
  );
}

// `orderId.userId` as its steps, split once per owner.
const ownerPaths = new Map<string, readonly string[]>();

function ownerPathOf(owner: string): readonly string[] {
  let path = ownerPaths.get(owner);
  if (!path) {
    path = owner.split('.');
    ownerPaths.set(owner, path);
  }
  return path;
}
