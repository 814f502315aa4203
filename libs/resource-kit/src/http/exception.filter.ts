import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Inject,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { KitError } from '../errors/kit.error';
import { writeFailure } from './answer';
import { STATUS_OF, type Failure } from '../errors/status';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { databaseFailure } from '../persistence/database-errors';

const INTERNAL: Failure = { status: 500, messages: ['internal server error'] };

/** The one place where failures become HTTP: status, headers and the error envelope. */
@Catch()
export class KitExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ResourceKit');

  constructor(@Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const failure = describeFailure(exception);
    if (failure.status >= 500)
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    writeFailure(response, failure, this.options.errorKey);
  }
}

/** The status, messages and headers a failure is answered with. */
export function describeFailure(exception: unknown): Failure {
  if (exception instanceof KitError) {
    return {
      status: STATUS_OF[exception.code],
      messages: exception.messages,
      headers: exception.headers,
    };
  }
  if (exception instanceof HttpException) return fromHttpException(exception);
  return databaseFailure(exception) ?? INTERNAL;
}

// Nest's own exceptions: routing misses (404) and anything a guard or pipe throws.
function fromHttpException(exception: HttpException): Failure {
  const status = exception.getStatus();
  if (status >= 500) return INTERNAL;
  if (status === 404) return { status, messages: ['no such path'] };
  const body = exception.getResponse();
  const message =
    typeof body === 'object' && body !== null && 'message' in body ? body.message : body;
  const messages = Array.isArray(message) ? message.map(String) : [String(message)];
  return { status, messages };
}
