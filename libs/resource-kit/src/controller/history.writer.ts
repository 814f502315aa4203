import type { EntityManager } from 'typeorm';
import type { ResourceDefinition } from '../metadata/definition';
import { readResourceDefinition } from '../metadata/definition.reader';
import { newRow } from '../decorators/resource-entity';

/** Writes the next revision of `entity` (numbered from 1) in the write's transaction. */
export async function writeRevision(
  definition: ResourceDefinition,
  entity: object,
  manager: EntityManager,
): Promise<void> {
  if (!definition.history) return;
  const target = definition.history.target();
  const owner = definition.history.owner;
  const { id } = entity as { id: string };
  const revisions = manager.getRepository(target);
  const latest = await revisions
    .createQueryBuilder('revision')
    .select('MAX(revision.revision)', 'latest')
    .where(`revision.${owner} = :id`, { id })
    .getRawOne<{ latest: number | string | null }>();
  const copied = readResourceDefinition(target)
    .attributes.filter(
      (attribute) =>
        attribute.property in entity &&
        attribute.property !== 'createdAt' &&
        attribute.property !== 'updatedAt',
    )
    .map((attribute): [string, unknown] => [
      attribute.property,
      (entity as Record<string, unknown>)[attribute.property],
    ]);
  const revision: Record<string, unknown> = {
    ...Object.fromEntries(copied),
    ...newRow(),
    [owner]: id,
    revision: Number(latest?.latest ?? 0) + 1,
  };
  await revisions.insert(revision);
}
