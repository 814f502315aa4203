import { HttpStatus } from '@nestjs/common';
import type { KitErrorCode } from './kit.error';

export const STATUS_OF: Readonly<Record<KitErrorCode, HttpStatus>> = {
  invalid_input: HttpStatus.BAD_REQUEST,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  method_not_allowed: HttpStatus.METHOD_NOT_ALLOWED,
  conflict: HttpStatus.CONFLICT,
  idempotency_key_in_use: HttpStatus.CONFLICT,
  idempotency_key_reused: HttpStatus.UNPROCESSABLE_ENTITY,
  precondition_failed: HttpStatus.PRECONDITION_FAILED,
  payload_too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  unsupported_media_type: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  rate_limited: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

/** What a failure is answered with: a status, one message per problem, headers. */
export interface Failure {
  readonly status: number;
  readonly messages: readonly string[];
  readonly headers?: Readonly<Record<string, string>>;
}
