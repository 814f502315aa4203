import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { KitError } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';

const METHODS_WITH_BODY = new Set(['POST', 'PATCH']);

/**
 * Reads JSON bodies of POST and PATCH only (a body on GET or DELETE is ignored, never parsed):
 * anything but application/json is 415, more than the limit is 413.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(@Inject(RESOURCE_KIT_OPTIONS) options: ResolvedKitOptions) {
    this.parse = json({ limit: options.bodyLimit, strict: false, type: () => true });
  }

  use(request: Request, response: Response, next: NextFunction): void {
    if (!METHODS_WITH_BODY.has(request.method)) return next();
    // `is` answers null when there is no body at all, false for a body of another type.
    if (request.is('application/json') === false) {
      return next(new KitError('unsupported_media_type', ['the body must be application/json']));
    }
    this.parse(request, response, next);
  }
}
