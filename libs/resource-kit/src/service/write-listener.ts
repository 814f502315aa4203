import type { ResourceDefinition } from '../metadata/definition';
import type { WriteContext } from './request-context';

export type WriteAction = 'created' | 'updated' | 'deleted';

/** A successful write, told inside its transaction (the listener's own writes commit with it). */
export interface WriteEvent {
  readonly action: WriteAction;
  readonly definition: ResourceDefinition;
  readonly entity: object;
  readonly context: WriteContext;
  /**
   * The written row's tenant, for a tenant-scoped resource (SPEC 1.15). Rows the listener
   * records into a tenant-scoped table through `context.record` are given it by the kit.
   */
  readonly tenant?: string;
}

/**
 * Implemented by the service to observe every write of every resource (an audit trail,
 * an outbox). Provide it under WRITE_LISTENER; the kit finds it wherever it is declared.
 * Its rows go through `context.record`. A created row is written with them, in the write's
 * last statement, unless its resource has an `afterWrite` hook: read the entity given, not
 * its table.
 */
export interface WriteListener {
  onWrite(event: WriteEvent): Promise<void> | void;
}

export const WRITE_LISTENER = Symbol('WRITE_LISTENER');
