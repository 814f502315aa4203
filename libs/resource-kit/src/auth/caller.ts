/** An authenticated caller: a user id and a role (`admin` may do everything the verbs allow). */
export interface Caller {
  readonly id: string;
  readonly role: string;
  /** The session of a JWT caller. */
  readonly sessionId?: string;
}

export const ADMIN_ROLE = 'admin';
