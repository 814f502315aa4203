import {
  meets,
  type AccessLevel,
  type MemberLevel,
  type ResourceDefinition,
} from '../metadata/definition';
import { ownerMemberOf, readsOwnRowsOnly, viewFor } from '../metadata/views';

/** An authenticated caller: a user id and a role (`admin` may do everything the verbs allow). */
export interface Caller {
  readonly id: string;
  readonly role: string;
  /** The session of a JWT caller. */
  readonly sessionId?: string;
  /**
   * The caller's tenant (a JWT's `tid` claim, or a static token's): a string, or `null` for a
   * cross-tenant operator (a static token registered so). Without one, a caller sees no row of
   * a tenant-scoped resource.
   */
  readonly tenant?: string | null;
}

export const ADMIN_ROLE = 'admin';

/** Whether `caller` (none when anonymous) may use an operation of this access level. */
export function mayUse(level: AccessLevel | undefined, caller: Caller | undefined): boolean {
  return level !== undefined && meets(levelOf(caller), level);
}

/** The level a caller's view of a resource is drawn for (SPEC 1.16). */
export function levelOf(caller: Caller | undefined): AccessLevel {
  if (!caller) return 'public';
  return caller.role === ADMIN_ROLE ? 'admin' : 'authenticated';
}

/**
 * The resource as `caller` sees it (SPEC 1.16): drawn at `owner` for a signed-in caller of a
 * resource whose reads are the owner's rows only, since every row they read is theirs. The
 * answer of a create (`created`, as sent) may be of a row the resource's logic gave someone
 * else: that one is drawn at the caller's own level.
 */
export function viewOf(
  definition: ResourceDefinition,
  caller: Caller | undefined,
  created?: Readonly<Record<string, unknown>>,
): ResourceDefinition {
  return viewFor(definition, viewLevelOf(definition, caller, created));
}

const VIEW_NAMES: Readonly<Record<MemberLevel, string>> = {
  public: 'an anonymous caller',
  authenticated: 'a signed-in caller',
  owner: 'its owner',
  admin: 'an administrator',
};

/** Who a caller's view of a resource is drawn for, in words (a 412 names it). */
export function viewNameOf(definition: ResourceDefinition, caller: Caller | undefined): string {
  return VIEW_NAMES[viewLevelOf(definition, caller)];
}

function viewLevelOf(
  definition: ResourceDefinition,
  caller: Caller | undefined,
  created?: Readonly<Record<string, unknown>>,
): MemberLevel {
  const level = levelOf(caller);
  if (level !== 'authenticated' || !readsOwnRowsOnly(definition)) return level;
  return !created || created[ownerMemberOf(definition)] === caller!.id ? 'owner' : level;
}
