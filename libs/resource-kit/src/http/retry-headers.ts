import type { Operation, ResourceDefinition } from '../metadata/definition';

/** What SPEC 1.11 adds to an operation: headers it honours and sends, statuses they bring. */
export interface RetryHeaders {
  readonly request: readonly string[];
  readonly response: readonly string[];
  readonly statuses: readonly number[];
}

const NONE: RetryHeaders = { request: [], response: [], statuses: [] };
const TAGGED: RetryHeaders = { request: [], response: ['ETag'], statuses: [] };

/** The one description of these headers; the OpenAPI document and the contract read it. */
export function retryHeadersOf(definition: ResourceDefinition, operation: Operation): RetryHeaders {
  switch (operation) {
    case 'list':
      return NONE;
    case 'create':
      return definition.idempotency === false
        ? TAGGED
        : {
            request: ['Idempotency-Key'],
            response: ['ETag', 'Idempotent-Replayed'],
            statuses: [409, 422],
          };
    case 'read':
      return { request: ['If-None-Match'], response: ['ETag'], statuses: [304] };
    case 'update':
    case 'delete':
      return { request: ['If-Match'], response: ['ETag'], statuses: [412] };
  }
}
