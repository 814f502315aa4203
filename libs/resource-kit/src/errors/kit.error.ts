/** The kinds of failure the kit reports; errors/status.ts maps each to its HTTP status. */
export type KitErrorCode =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable';

/** A failure the client should see: a code and one message per problem. */
export class KitError extends Error {
  constructor(
    readonly code: KitErrorCode,
    readonly messages: readonly string[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(messages.join('; '));
    this.name = 'KitError';
  }
}

export const invalidInput = (messages: readonly string[]) =>
  new KitError('invalid_input', messages);
export const notFound = (message = 'not found') => new KitError('not_found', [message]);
export const conflict = (message: string) => new KitError('conflict', [message]);
export const methodNotAllowed = (method: string, allow: readonly string[]) =>
  new KitError(
    'method_not_allowed',
    [`${method} is not allowed here; allowed: ${allow.join(', ')}`],
    {
      Allow: allow.join(', '),
    },
  );
