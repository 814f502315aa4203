import { retryHeadersOf } from '../http/retry-headers';
import type { Operation, ResourceDefinition } from '../metadata/definition';
import type { JsonSchema } from '../validation/output.schema';

/** An operation of the document: the five of a resource, and reading a relationship. */
export type DocumentedOperation = Operation | 'to-one' | 'to-many';

/** What the document knows beyond one definition: whether other resources refer to it. */
export interface StatusContext {
  readonly referenced: boolean;
}

const HEADERS: Readonly<Record<number, JsonSchema>> = {
  401: {
    'WWW-Authenticate': {
      description:
        'Bearer; with error="invalid_token" and an error_description when the token sent does not hold (RFC 6750)',
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  503: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
};

/**
 * Every error status an operation can answer, each with why and the error envelope: those
 * the kit answers for this declaration, and those the resource's hooks declare (`answers`).
 */
export function errorResponses(
  definition: ResourceDefinition,
  operation: DocumentedOperation,
  context: StatusContext,
): JsonSchema {
  const reasons = new Map<number, string[]>();
  for (const [status, reason] of kitStatuses(definition, operation, context)) {
    reasons.set(status, [...(reasons.get(status) ?? []), reason]);
  }
  const declared = definition.answers.get(accessOf(operation)) ?? {};
  for (const [status, reason] of Object.entries(declared)) {
    reasons.set(+status, [...(reasons.get(+status) ?? []), reason]);
  }
  return Object.fromEntries(
    [...reasons]
      .sort(([a], [b]) => a - b)
      .map(([status, texts]) => [
        String(status),
        {
          description: texts.join('; '),
          ...(HEADERS[status] && { headers: HEADERS[status] }),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
  );
}

function accessOf(operation: DocumentedOperation): Operation {
  return operation === 'to-one' || operation === 'to-many' ? 'read' : operation;
}

function kitStatuses(
  definition: ResourceDefinition,
  operation: DocumentedOperation,
  { referenced }: StatusContext,
): [number, string][] {
  const level = definition.access.get(accessOf(operation));
  const writes = operation === 'create' || operation === 'update';
  const retry = retryHeadersOf(definition, accessOf(operation)).statuses;
  const changesState = operation === 'update' && definition.transitions !== undefined;
  const statuses: [number, string | false][] = [
    [400, badRequest(operation, retry.includes(422))],
    [401, level !== 'public' && 'No valid bearer token'],
    [403, level === 'admin' && 'The operation is for administrators'],
    [403, changesState && 'The caller\u2019s role may not make this state move'],
    [
      404,
      !['list', 'create'].includes(operation) &&
        `No such ${definition.type}, or not visible to the caller`,
    ],
    [409, retry.includes(409) && 'The Idempotency-Key is in use by a request still running'],
    [409, changesState && 'The state move is not allowed from the current state'],
    [409, operation === 'delete' && referenced && 'Other resources still refer to it'],
    [412, retry.includes(412) && 'If-Match does not name the current ETag: nothing changed'],
    [413, writes && 'The body is larger than the limit'],
    [415, writes && 'The body is not application/json'],
    // Node's HTTP parser refuses the request before any route: every operation can answer it.
    [431, 'The request headers are larger than the server accepts'],
    [
      422,
      retry.includes(422) &&
        'The Idempotency-Key was used for another request (another body or path)',
    ],
    [500, 'Unexpected failure, or an answer that failed its declaration (details in the log)'],
    [
      503,
      'The service cannot answer now (the database is unavailable, or the request ran out of time)',
    ],
  ];
  return statuses.filter((entry): entry is [number, string] => entry[1] !== false);
}

function badRequest(operation: DocumentedOperation, idempotent: boolean): string {
  const reasons = [];
  if (operation === 'create' || operation === 'update')
    reasons.push('The body does not match the declaration (every problem listed)');
  if (operation === 'create' && idempotent) reasons.push('the Idempotency-Key is malformed');
  // DELETE reads no query.
  if (!['create', 'update', 'delete'].includes(operation))
    reasons.push('A query parameter is unknown or does not parse (every problem listed)');
  if (!['list', 'create'].includes(operation))
    reasons.push('the id in the path is not percent-encoded UTF-8');
  return reasons.join(', or ');
}
