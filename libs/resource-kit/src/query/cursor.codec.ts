import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidInput } from '../errors/kit.error';

/**
 * Opaque, tamper-evident cursors: the last row's order keys, bound to the query they were
 * issued for (`binding`: the collection, the caller, the canonical filter and order), signed with the server's secret.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(keys: readonly unknown[], binding: string): string {
    const payload = Buffer.from(JSON.stringify({ k: keys, b: binding })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, binding: string): unknown[] {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined || !this.verify(payload, signature)) {
      throw invalidInput(['cursor is not a cursor this service issued']);
    }
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      k: unknown[];
      b: string;
    };
    if (decoded.b !== binding) {
      throw invalidInput([
        'cursor belongs to another collection, caller, filter or order; start again without it',
      ]);
    }
    return decoded.k;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
