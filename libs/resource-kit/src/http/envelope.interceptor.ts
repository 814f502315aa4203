import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { serializeResource } from '../serialization/resource.serializer';
import { ResourceResponse } from '../serialization/resource-response';
import { assertValidOutput } from '../validation/output.validator';

/** Wraps every successful response in `{data}` (and `cursor` for collections), checked first. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((result) => envelope(result)));
  }
}

/** The response body of a handler's result (a stored idempotent answer is this too). */
export function envelope(result: unknown): unknown {
  if (!(result instanceof ResourceResponse)) return { data: result };
  const { definition, body } = result;
  const wire = (entity: object, created: boolean) => {
    const resource = serializeResource(definition, entity, { created });
    assertValidOutput(definition, resource, { created });
    return resource;
  };
  if ('entity' in body) return { data: wire(body.entity, body.created) };
  const data = body.entities.map((entity) => wire(entity, false));
  // Only cursor pagination has a cursor; offset styles answer `{data}` alone.
  return body.cursor === undefined ? { data } : { data, cursor: body.cursor };
}
