import type { AccessLevel } from '../metadata/definition';

/** An authenticated caller: a user id and a role (`admin` may do everything the verbs allow). */
export interface Caller {
  readonly id: string;
  readonly role: string;
  /** The session of a JWT caller. */
  readonly sessionId?: string;
}

export const ADMIN_ROLE = 'admin';

/** Whether `caller` (none when anonymous) may use an operation of this access level. */
export function mayUse(level: AccessLevel | undefined, caller: Caller | undefined): boolean {
  if (level === 'public') return true;
  if (level === 'authenticated') return caller !== undefined;
  return level === 'admin' && caller?.role === ADMIN_ROLE;
}
