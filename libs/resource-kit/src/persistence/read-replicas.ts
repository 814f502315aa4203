import { QueryFailedError, type EntityManager } from 'typeorm';
import { databaseFailure, driverCode } from './database-errors';

// Errors of the statement itself (bad data, a constraint, a missing relation or column, its
// own statement timeout): a replica's answer is the primary's.
const STATEMENT_ERROR = /^(22|23|42|57014)/;

/**
 * Hot standbys that reads may go to instead of the primary (SPEC 1.13). A service that has
 * them provides this as READ_REPLICAS. The kit sends a read to `pick()` only when it is
 * anonymous and outside a write: an identified caller's reads stay on the primary, so a
 * caller always reads their own writes, whichever instance made them; anonymous reads may lag
 * by the replica's replay delay. A read that cannot reach its replica runs again on another
 * healthy replica, or else on the primary, and the replica is reported `unreachable`.
 */
export interface ReadReplicas {
  /** A healthy replica's manager, or undefined when none is (the primary answers). */
  pick(): EntityManager | undefined;
  /** A read could not reach `manager`'s replica: leave it out until it is healthy again. */
  unreachable(manager: EntityManager): void;
}

export const READ_REPLICAS = Symbol('resource-kit:read-replicas');

/** A read sent to a replica, and where it goes when that replica cannot answer. */
export interface ReplicaRead {
  readonly primary: EntityManager;
  readonly replicas: ReadReplicas;
}

/**
 * Runs `read` on the replica's manager; when that replica failed, on another healthy replica,
 * or else once more on the primary.
 */
export async function onReplica<R>(
  manager: EntityManager,
  replica: ReplicaRead | undefined,
  read: (manager: EntityManager) => Promise<R>,
): Promise<R> {
  if (!replica) return read(manager);
  try {
    return await read(manager);
  } catch (error) {
    if (!replicaFailed(error)) throw error;
    // Another replica or the primary may answer. This one is left out until its next good
    // probe; during a failover the primary may be the one that cannot answer.
    replica.replicas.unreachable(manager);
    const other = replica.replicas.pick();
    return other ? onReplica(other, replica, read) : read(replica.primary);
  }
}

// Unreachable or shutting down, or a statement the replica could not run (cancelled by
// recovery, say); not an error of the statement itself, nor of the request (a 404).
function replicaFailed(error: unknown): boolean {
  if (STATEMENT_ERROR.test(driverCode(error) ?? '')) return false;
  return databaseFailure(error)?.status === 503 || error instanceof QueryFailedError;
}
