import type { Caller } from '@app/resource-kit';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { currentRequestId } from './app-logger';

// A client's id is kept only if it is short and printable, so it cannot forge log content.
const ACCEPTABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** The route template of a request Express routed; one label for everything else. */
export function routeOf(request: Request): string {
  return (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
}

/**
 * Gives every request its X-Request-Id and, when it ends, one line: fields picked from the
 * request (never its headers, so no Authorization or cookies), at info, or error for a 5xx.
 */
export function requestLog(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const offered = request.headers['x-request-id'];
    const id =
      typeof offered === 'string' && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
    response.setHeader('X-Request-Id', id);
    const started = performance.now();
    response.once('close', () => {
      const level = response.statusCode >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        logger[level](requestLine(request, response, id, started), 'request completed');
      }
    });
    currentRequestId.run(id, next);
  };
}

function requestLine(request: Request, response: Response, id: string, started: number) {
  const caller = (request as Request & { user?: Caller }).user;
  return {
    req: {
      id,
      method: request.method,
      path: request.path,
      route: routeOf(request),
      address: request.ip,
    },
    res: { status: response.statusCode, ...(!response.writableFinished && { aborted: true }) },
    user: caller ? { id: caller.id, role: caller.role } : null,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
