import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { envelope } from '../serialization/envelope';

/**
 * Wraps the answers of the operations endpoints in `{data}`, through the function that
 * envelopes every resource answer (serialization/envelope.ts). Resource handlers write their
 * answers themselves, so that Nest serializes nothing twice.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((result: unknown) => envelope(result)));
  }
}
