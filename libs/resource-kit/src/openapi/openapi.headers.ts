import type { Operation, ResourceDefinition } from '../metadata/definition';
import { retryHeadersOf } from '../http/retry-headers';
import type { JsonSchema } from '../validation/output.schema';

const REQUEST_HEADERS: Readonly<Record<string, JsonSchema>> = {
  'Idempotency-Key': {
    description:
      'Makes a retry safe: the first request with a key runs, a repeat with the same body gets its stored answer (2xx or 409) again, with Idempotent-Replayed: true. Kept 24 hours by default.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  },
  'If-None-Match': {
    description: 'ETags the client holds: when one is current, 304 with no body.',
    schema: { type: 'string' },
  },
  'If-Match': {
    description:
      'The ETag the change is based on (or *): when it is not current, 412 and nothing changes.',
    schema: { type: 'string' },
  },
};

const RESPONSE_HEADERS: Readonly<Record<string, JsonSchema>> = {
  ETag: {
    description: 'Strong tag of this resource; changes whenever any of its members does.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` on the stored answer to a repeated Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The header parameters an operation takes (SPEC 1.11). */
export function headerParameters(
  definition: ResourceDefinition,
  operation: Operation,
): JsonSchema[] {
  return retryHeadersOf(definition, operation).request.map((name) => ({
    name,
    in: 'header',
    required: false,
    ...REQUEST_HEADERS[name],
  }));
}

/** The headers of an operation's success answer. */
export function responseHeaders(definition: ResourceDefinition, operation: Operation): JsonSchema {
  const names = retryHeadersOf(definition, operation).response;
  return names.length === 0
    ? {}
    : { headers: Object.fromEntries(names.map((name) => [name, RESPONSE_HEADERS[name]])) };
}
