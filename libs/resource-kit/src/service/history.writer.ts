import { newRow, type ResourceEntity } from '../decorators/resource-entity';
import type { PendingStatement } from '../persistence/write.batch';
import type { RegisteredResource } from './registered-resource';

const OWN_MEMBERS = new Set(['createdAt', 'updatedAt']);

/**
 * The next revision of `entity` (numbered from 1), to insert with the write: one statement,
 * whose INSERT counts the number itself.
 */
export function revisionOf(
  revisions: Pick<RegisteredResource, 'definition' | 'table'>,
  owner: string,
  entity: object,
): PendingStatement {
  const source = entity as Record<string, unknown>;
  const revision: ResourceEntity & Record<string, unknown> = { ...newRow(), [owner]: source.id };
  for (const { property } of revisions.definition.attributes) {
    if (property in source && !OWN_MEMBERS.has(property)) revision[property] = source[property];
  }
  return revisions.table.writes.numberedInsertion(revision, 'revision', owner);
}
