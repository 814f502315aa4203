import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { serializeResource } from '../serialization/resource.serializer';
import { ResourceResponse } from '../serialization/resource-response';
import { assertValidOutput } from '../validation/output.validator';

/** Wraps every successful response in `{data}` (and `cursor` for collections), checked first. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(@Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const validate = this.options.validateOutput;
    return next.handle().pipe(map((result) => envelope(result, validate)));
  }
}

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
