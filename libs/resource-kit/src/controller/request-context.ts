import type { EntityManager } from 'typeorm';
import type { Caller } from '../auth/caller';

/** Who is asking; filled by the auth layer, read by scope and access hooks. */
export interface RequestContext {
  readonly caller?: Caller;
  /** The client's address (X-Forwarded-For from a trusted gateway), for rate limits. */
  readonly clientAddress?: string;
}

/** A write in progress: its request and its transaction. */
export interface WriteContext extends RequestContext {
  readonly manager: EntityManager;
}
