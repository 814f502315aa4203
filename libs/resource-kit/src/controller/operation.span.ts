import { SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import type { Request } from 'express';
import { KitError } from '../errors/kit.error';
import type { ResourceCall } from './resource.guard';

/**
 * Runs `work` in a span `<verb> <type>` (`PATCH orders`), a child of the request's, with the
 * resource type, operation and id as attributes. A coded kit error (an answer such as 404) is
 * recorded on the span as its code; anything else marks the span failed.
 */
export function traced<T>(
  tracer: Tracer,
  { service, operation, id, relationship }: ResourceCall,
  request: Request,
  work: () => Promise<T>,
): Promise<T> {
  const { type } = service.definition;
  const attributes: Attributes = { 'resource.type': type, 'resource.operation': operation };
  if (id !== undefined) attributes['resource.id'] = id;
  if (relationship !== undefined) attributes['resource.relationship'] = relationship;
  return tracer.startActiveSpan(`${request.method} ${type}`, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof KitError) {
        span.setAttribute('resource.error', error.code);
      } else {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}
