import { KitError } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { serializeResource } from '../serialization/resource.serializer';
import { entityTag, ifMatchAllows } from './entity-tag';

/**
 * 412 unless `ifMatch` (the request's If-Match, when sent) names the current ETag of `entity`
 * in the caller's `view` (named in the message, `whose`): the kit's wire form of it, as a read
 * by the same caller is tagged (http/answer.ts), whatever a team's interceptor makes of that
 * answer. Called on the row a write has locked, so the check and the write see one version.
 */
export function assertIfMatch(
  view: ResourceDefinition,
  whose: string,
  entity: { id: string },
  ifMatch: string | undefined,
): void {
  if (ifMatch === undefined) return;
  const current = entityTag(serializeResource(view, entity, { created: false }));
  if (ifMatchAllows(ifMatch, current)) return;
  throw new KitError('precondition_failed', [
    `If-Match does not name the current ETag of ${view.type} ${entity.id} in the view of ` +
      `${whose} (${current}): read it again as the same caller`,
  ]);
}
