import type { EntityManager } from 'typeorm';

/** Who is asking; filled by the auth layer, read by scope and access hooks. */
export interface RequestContext {
  readonly caller?: { readonly id: string; readonly role: string };
}

/** A write in progress: its request and its transaction. */
export interface WriteContext extends RequestContext {
  readonly manager: EntityManager;
}
