import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { ForResource } from '../controller/operation';
import { entityTag, ifNoneMatchHits } from './entity-tag';

/**
 * Gives every answer that holds one resource its strong ETag (a hash of the wire form), and
 * answers a GET whose If-None-Match names it with 304 and no body.
 */
@Injectable()
export class EntityTagInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reflector.get(ForResource, context.getClass())) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        const resource = singleResourceOf(body);
        if (!resource) return body;
        const tag = entityTag(resource);
        response.setHeader('ETag', tag);
        const condition = request.headers['if-none-match'];
        if (request.method !== 'GET' || !condition || !ifNoneMatchHits(condition, tag)) return body;
        response.status(304);
        return undefined;
      }),
    );
  }
}

// `{data: {...}}`: not a collection, not a null to-one, not an error answer replayed.
function singleResourceOf(body: unknown): object | undefined {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? data : undefined;
}
