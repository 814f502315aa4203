import { CallHandler, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { KitError } from '@app/resource-kit';
import { Observable, throwError, timeout } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Answers 503 with Retry-After when a request runs longer than REQUEST_TIMEOUT_MS. The work
 * itself stops at the database's statement timeout, which rolls its transaction back.
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout({
        first: this.config.requestTimeoutMs,
        with: () =>
          throwError(
            () =>
              new KitError('unavailable', ['the request took too long; try again later'], {
                'Retry-After': '5',
              }),
          ),
      }),
    );
  }
}
