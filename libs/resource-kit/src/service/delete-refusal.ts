import type { DataSource } from 'typeorm';
import { conflict, KitError } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import type { ResourceRegistry } from './resource-registry';

// What a foreign key does when its target goes: these refuse, the others cascade or clear.
const REFUSING = new Set(['RESTRICT', 'NO ACTION']);

/**
 * Why a foreign key refused to delete a row: the first table whose refusing key points at it,
 * named as its resource (`users with reviews cannot be deleted`), where the database says only
 * that something does. Looked up after the delete failed: deletes that succeed pay nothing.
 */
export async function deleteRefusal(
  deleted: ResourceDefinition,
  id: string,
  registry: ResourceRegistry,
  dataSource: DataSource,
): Promise<KitError | undefined> {
  for (const table of dataSource.entityMetadatas) {
    for (const key of table.foreignKeys) {
      const refuses = REFUSING.has(key.onDelete ?? 'NO ACTION');
      if (!refuses || key.referencedEntityMetadata.target !== deleted.entity) continue;
      const where = { [key.columns[0].propertyName]: id };
      if (await dataSource.getRepository(table.target).existsBy(where)) {
        const blocking = registry.definitions().find((other) => other.entity === table.target);
        return conflict(
          `${deleted.type} with ${blocking?.type ?? table.tableName} cannot be deleted`,
        );
      }
    }
  }
  return undefined;
}
