import type { Request, Response } from 'express';
import { entityTag, ifNoneMatchHits } from '../conditional/entity-tag';
import type { Failure } from '../errors/status';
import type { ResourceDefinition } from '../metadata/definition';
import type { WireResource } from '../serialization/resource.serializer';
import {
  assertValidEnvelope,
  assertEnvelopeObject,
  type AnswerShape,
} from '../validation/envelope.validator';

/** A resource answer as a value: one resource (or a null to-one), or a page with its cursor. */
export interface Envelope {
  readonly data: unknown;
  readonly cursor?: string | null;
}

/** What a resource route's answer holds, and the ETag of the one resource it holds, if any. */
export interface DeclaredAnswer extends AnswerShape {
  readonly tag?: string;
}

const DECLARED = Symbol('resource-kit:declared-answer');
type AnsweredRequest = Request & { [DECLARED]?: DeclaredAnswer };

/** Declares a page of resources of `definition`, or a to-one relationship with none. */
export function expectAnswer(request: Request, shape: AnswerShape): void {
  (request as AnsweredRequest)[DECLARED] = shape;
}

/**
 * Declares one resource of `definition`, tagged with the ETag of the kit's wire form of it in
 * the caller's view (a create's on-create members left out, so that the tag holds in If-Match
 * at once and no secret reaches a header, even hashed). The tag is the one If-Match is
 * compared with (conditional/precondition.ts), so a team's interceptor that maps the answer
 * cannot make the two diverge.
 */
export function expectResource(
  request: Request,
  definition: ResourceDefinition,
  resource: WireResource,
  created: boolean,
): void {
  const tag = entityTag(created ? storedForm(definition, resource) : resource);
  (request as AnsweredRequest)[DECLARED] = { definition, created, page: false, tag };
}

/** What the route that served `request` declared it answers, if it is a resource route. */
export function declaredAnswerOf(request: Request): DeclaredAnswer | undefined {
  return (request as AnsweredRequest)[DECLARED];
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes the answer of a resource route once every interceptor has run (the kit's adapter
 * calls it where Nest hands a route's value to the response): the output check (SPEC 1.5) on
 * what the interceptors returned, so an answer off its declaration is a 500 that is never
 * sent, whatever the value is (a string or `null` included). One resource gets its ETag, and a
 * GET whose If-None-Match names it is answered 304 with no body.
 */
export function writeAnswer(
  request: Request,
  response: Response,
  body: unknown,
  declared: DeclaredAnswer,
  validateOutput: boolean,
): void {
  // The request's time limit may have answered already.
  if (response.headersSent) return;
  if (validateOutput) assertValidEnvelope(declared, body);
  else assertEnvelopeObject(declared, body);
  const { tag } = declared;
  if (tag !== undefined) {
    response.setHeader('ETag', tag);
    const condition = request.headers['if-none-match'];
    if (request.method === 'GET' && condition !== undefined && ifNoneMatchHits(condition, tag)) {
      response.statusCode = 304;
      response.end();
      return;
    }
  }
  writeJson(response, response.statusCode, body);
}

/** Writes a failure in the error envelope under the service's error key. */
export function writeFailure(response: Response, failure: Failure, errorKey: string): void {
  if (response.headersSent) return;
  if (failure.headers) response.set(failure.headers);
  writeJson(response, failure.status, { [errorKey]: failure.messages });
}

function writeJson(response: Response, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', JSON_TYPE);
  response.end(JSON.stringify(body));
}

// A create's answer without its on-create members (a secret, a token): the form a GET shows.
function storedForm(definition: ResourceDefinition, resource: WireResource): WireResource {
  const onCreate = onCreateMembers(definition);
  if (onCreate.length === 0) return resource;
  const stored = { ...resource };
  for (const name of onCreate) delete stored[name];
  return stored;
}

const onCreateNames = new WeakMap<ResourceDefinition, readonly string[]>();

function onCreateMembers(definition: ResourceDefinition): readonly string[] {
  let names = onCreateNames.get(definition);
  if (!names) {
    names = definition.attributes.filter((a) => a.output === 'on-create').map((a) => a.name);
    onCreateNames.set(definition, names);
  }
  return names;
}
