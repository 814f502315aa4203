import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { KitError } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';

const METHODS_WITH_BODY = new Set(['POST', 'PATCH']);
const BODY_ERROR = Symbol('resource-kit:body-error');

type RequestWithBody = Request & { [BODY_ERROR]?: KitError };

/**
 * Reads JSON bodies of POST and PATCH only (a body on GET or DELETE is never parsed).
 * A body problem (415, 413, malformed) is kept and raised by the input pipe, so that
 * 404, 405 and 401 are answered first, as for any other request.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(@Inject(RESOURCE_KIT_OPTIONS) options: ResolvedKitOptions) {
    this.parse = json({ limit: options.bodyLimit, strict: false, type: () => true });
  }

  use(request: RequestWithBody, response: Response, next: NextFunction): void {
    if (!METHODS_WITH_BODY.has(request.method)) return next();
    // `is` answers null when there is no body at all, false for a body of another type.
    if (request.is('application/json') === false && !isEmpty(request)) {
      request[BODY_ERROR] = new KitError('unsupported_media_type', [
        'the body must be application/json',
      ]);
      return next();
    }
    this.parse(request, response, (error?: unknown) => {
      if (error) request[BODY_ERROR] = bodyError(error);
      next();
    });
  }
}

/** Throws the body problem the middleware found, if any. */
export function assertBodyReadable(request: Request): void {
  const error = (request as RequestWithBody)[BODY_ERROR];
  if (error) throw error;
}

function isEmpty(request: Request): boolean {
  return request.headers['content-type'] === undefined && request.headers['content-length'] === '0';
}

// Errors of the JSON body parser carry a `type`; none of their text reaches the client.
function bodyError(error: unknown): KitError {
  const { type, limit } = error as { type?: unknown; limit?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new KitError('invalid_input', ['the body is not valid JSON']);
    case 'entity.too.large':
      return new KitError('payload_too_large', [
        `the body is larger than the limit of ${String(limit)} bytes`,
      ]);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new KitError('unsupported_media_type', ['the body must be UTF-8 encoded JSON']);
    default:
      return new KitError('invalid_input', ['the body could not be read']);
  }
}
