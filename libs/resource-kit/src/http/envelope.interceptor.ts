import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';

/**
 * Wraps the answers of the operations endpoints (Nest routes) in `{data}`; resources are
 * enveloped by the router (serialization/envelope.ts).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((result: unknown) => ({ data: result })));
  }
}
