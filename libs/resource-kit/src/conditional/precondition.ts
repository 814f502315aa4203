import { KitError } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { serializeResource } from '../serialization/resource.serializer';
import { entityTag, ifMatchAllows } from './entity-tag';

/**
 * 412 unless `ifMatch` (the request's If-Match, when sent) names the current ETag of
 * `entity`. Called on the row a write has locked, so the check and the write see one version.
 */
export function assertIfMatch(
  definition: ResourceDefinition,
  entity: { id: string },
  ifMatch: string | undefined,
): void {
  if (ifMatch === undefined) return;
  const current = entityTag(serializeResource(definition, entity, { created: false }));
  if (ifMatchAllows(ifMatch, current)) return;
  throw new KitError('precondition_failed', [
    `If-Match does not name the current ETag of ${definition.type} ${entity.id} (${current}); read it again`,
  ]);
}
