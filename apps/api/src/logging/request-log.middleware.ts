import type { Caller } from '@app/resource-kit';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ResourceDomains } from '../domains/resource-domains';
import { currentRequestId } from './app-logger';

// A client's id is kept only if it is short and printable, so it cannot forge log content.
const ACCEPTABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** The route template of a Nest route, resources' included (`/products/:id`); one label for everything else. */
export function routeOf(request: Request): string {
  return (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
}

const REQUEST = Symbol('request-log');

type LoggedResponse = Response & { [REQUEST]: { id: string; started: number } };

/**
 * Gives every request its X-Request-Id and, when it ends, one line: fields picked from the
 * request (never its headers, so no Authorization or cookies) and the domain that served it,
 * at info, or error for a 5xx.
 */
export function requestLog(logger: Logger, domains: ResourceDomains) {
  // One listener function for every response: no closure per request.
  function writeLine(this: LoggedResponse): void {
    const level = this.statusCode >= 500 ? 'error' : 'info';
    if (logger.isLevelEnabled(level)) {
      logger[level](requestLine(this, domains), 'request completed');
    }
  }
  return (request: Request, response: Response, next: NextFunction): void => {
    // Node keeps the peer's address once read while the socket is open: a line written after
    // the client (or a gateway) closed the connection still names it.
    void request.socket.remoteAddress;
    const offered = request.headers['x-request-id'];
    const id =
      typeof offered === 'string' && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
    response.setHeader('X-Request-Id', id);
    (response as LoggedResponse)[REQUEST] = { id, started: performance.now() };
    response.on('close', writeLine);
    currentRequestId.run(id, next);
  };
}

function requestLine(response: LoggedResponse, domains: ResourceDomains) {
  const { req: request, statusCode } = response;
  const { id, started } = response[REQUEST];
  const caller = (request as Request & { user?: Caller }).user;
  const route = routeOf(request);
  return {
    req: {
      id,
      method: request.method,
      path: request.path,
      route,
      address: request.ip,
    },
    domain: domains.ofRoute(route),
    res: { status: statusCode, ...(!response.writableFinished && { aborted: true }) },
    user: caller ? { id: caller.id, role: caller.role } : null,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
