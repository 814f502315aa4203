import { Inject, Injectable } from '@nestjs/common';
import { json, type Request, type RequestHandler, type Response } from 'express';
import { KitError } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';

/**
 * Reads the JSON body of a POST or PATCH into `request.body`; a body problem (415, 413,
 * malformed) is thrown as the kit error it is answered with.
 */
@Injectable()
export class JsonBodyReader {
  private readonly parse: RequestHandler;

  constructor(@Inject(RESOURCE_KIT_OPTIONS) options: ResolvedKitOptions) {
    this.parse = json({ limit: options.bodyLimit, strict: false, type: () => true });
  }

  async read(request: Request, response: Response): Promise<void> {
    // `is` answers null when there is no body at all, false for a body of another type.
    if (request.is('application/json') === false && !isEmpty(request)) {
      throw new KitError('unsupported_media_type', ['the body must be application/json']);
    }
    const problem = await new Promise<KitError | undefined>((resolve) =>
      this.parse(request, response, (error?: unknown) =>
        resolve(error ? bodyError(error) : undefined),
      ),
    );
    if (problem) throw problem;
  }
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
