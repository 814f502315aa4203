import type { NextFunction, Request, Response } from 'express';

const TOO_SLOW = JSON.stringify({ error: ['the request took too long; try again later'] });

type LimitedResponse = Response & { [TIMER]?: NodeJS.Timeout };
const TIMER = Symbol('request-time-limit');

/**
 * Answers 503 with Retry-After when a request runs longer than REQUEST_TIMEOUT_MS. The work
 * itself stops at the database's statement timeout, which rolls its transaction back; what it
 * would answer then is dropped (the kit writes nothing once an answer has started).
 */
export function requestTimeLimit(limitMs: number) {
  function answerTooSlow(response: LimitedResponse): void {
    if (response.headersSent) return;
    response.statusCode = 503;
    response.setHeader('Retry-After', '5');
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(TOO_SLOW);
  }
  // One listener function for every response: no closure per request.
  function clear(this: LimitedResponse): void {
    clearTimeout(this[TIMER]);
  }
  return (_request: Request, response: Response, next: NextFunction): void => {
    (response as LimitedResponse)[TIMER] = setTimeout(answerTooSlow, limitMs, response);
    response.on('close', clear);
    next();
  };
}
