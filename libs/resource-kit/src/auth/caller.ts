import { meets, type AccessLevel } from '../metadata/definition';

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
