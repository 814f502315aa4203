import { invalidInput } from '../errors/kit.error';

// 1 to 255 printable ASCII characters (space to tilde).
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header's value; 400 when it is not a key. */
export function parseIdempotencyKey(header: string | string[]): string {
  if (typeof header === 'string' && KEY.test(header)) return header;
  throw invalidInput(['Idempotency-Key must be 1 to 255 printable ASCII characters']);
}
