import type { EntityManager } from 'typeorm';
import { newRow, type ResourceEntity } from '../decorators/resource-entity';
import type { ResourceService } from './resource.service';

const OWN_MEMBERS = new Set(['createdAt', 'updatedAt']);

/**
 * Writes the next revision of `entity` (numbered from 1) in the write's transaction, in one
 * statement: the number is counted by the INSERT itself.
 */
export async function writeRevision(
  revisions: ResourceService,
  owner: string,
  entity: object,
  manager: EntityManager,
): Promise<void> {
  const source = entity as Record<string, unknown>;
  const revision: ResourceEntity & Record<string, unknown> = { ...newRow(), [owner]: source.id };
  for (const { property } of revisions.definition.attributes) {
    if (property in source && !OWN_MEMBERS.has(property)) revision[property] = source[property];
  }
  await revisions.table.writes.insertNumbered(manager, revision, 'revision', owner);
}
