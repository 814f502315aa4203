import type { Request, Response } from 'express';
import { entityTag, ifNoneMatchHits } from '../conditional/entity-tag';
import type { Failure } from './exception.filter';

/** What a resource request is answered with: a status, the envelope, and headers. */
export interface Answer {
  readonly status: number;
  /** The response body: `{data}` (with `cursor` for a page) or a stored error envelope. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes an answer. One that holds a single resource gets its strong ETag (a hash of the wire
 * form), and a GET whose If-None-Match names it is answered 304 with no body.
 */
export function writeAnswer(request: Request, response: Response, answer: Answer): void {
  // The request's time limit may have answered already.
  if (response.headersSent) return;
  if (answer.headers) setHeaders(response, answer.headers);
  const resource = singleResourceOf(answer.body);
  if (resource) {
    const tag = entityTag(resource);
    response.setHeader('ETag', tag);
    const condition = request.headers['if-none-match'];
    if (request.method === 'GET' && condition !== undefined && ifNoneMatchHits(condition, tag)) {
      response.statusCode = 304;
      response.end();
      return;
    }
  }
  writeJson(response, answer.status, answer.body);
}

/** Writes a failure in the error envelope under the service's error key. */
export function writeFailure(response: Response, failure: Failure, errorKey: string): void {
  if (response.headersSent) return;
  if (failure.headers) setHeaders(response, failure.headers);
  writeJson(response, failure.status, { [errorKey]: failure.messages });
}

function writeJson(response: Response, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', JSON_TYPE);
  response.end(JSON.stringify(body));
}

function setHeaders(response: Response, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) response.setHeader(name, headers[name]);
}

// `{data: {...}}`: not a collection, not a null to-one, not an error answer replayed.
function singleResourceOf(body: unknown): object | undefined {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? data : undefined;
}
