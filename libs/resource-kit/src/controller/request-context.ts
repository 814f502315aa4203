import type { EntityManager } from 'typeorm';
import type { Caller } from '../auth/caller';

/** Who is asking; filled by the auth layer, read by scope and access hooks. */
export interface RequestContext {
  readonly caller?: Caller;
}

/** A write in progress: its request and its transaction. */
export interface WriteContext extends RequestContext {
  readonly manager: EntityManager;
}
