import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest's Express adapter whose HTTP server builds each request and response on Express's own
 * prototypes. Express switches every request's and response's prototype to them as it takes
 * the request (`Object.setPrototypeOf`, twice per request); with them already in place the
 * switch finds nothing to do and the objects keep one shape from birth.
 */
export class PrototypedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // Nest's own set-up first (its server, its 503-on-closing middleware). Its server stays
    // where Nest ties state to it: HTTPS, or connections it tracks. Otherwise it is replaced
    // before anything listens: one unused object at start.
    super.initHttpServer(options);
    if (options.httpsOptions || options.forceCloseConnections) return;
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: constructorOn(IncomingMessage, app.request),
        ServerResponse: constructorOn(ServerResponse, app.response),
      },
      app,
    );
  }
}

// A constructor of `base`'s objects born on `prototype` (which inherits from base's).
function constructorOn<T extends typeof IncomingMessage | typeof ServerResponse>(
  base: T,
  prototype: object,
): T {
  function Constructed(...args: unknown[]): object {
    return Reflect.construct(base, args, Constructed) as object;
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}
