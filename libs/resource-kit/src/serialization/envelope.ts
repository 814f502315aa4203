import { assertValidOutput } from '../validation/output.validator';
import { serializeResource } from './resource.serializer';
import { ResourceResponse } from './resource-response';

/**
 * The response body of a handler's result (a stored idempotent answer is this too), checked
 * against its declaration unless `validate` is off (kit option validateOutput).
 */
export function envelope(result: unknown, validate = true): unknown {
  if (!(result instanceof ResourceResponse)) return { data: result };
  const { definition, body } = result;
  const wire = (entity: object, created: boolean) => {
    const resource = serializeResource(definition, entity, { created });
    if (validate) assertValidOutput(definition, resource, { created });
    return resource;
  };
  if ('entity' in body) return { data: wire(body.entity, body.created) };
  const data = body.entities.map((entity) => wire(entity, false));
  // Only cursor pagination has a cursor; offset styles answer `{data}` alone.
  return body.cursor === undefined ? { data } : { data, cursor: body.cursor };
}
