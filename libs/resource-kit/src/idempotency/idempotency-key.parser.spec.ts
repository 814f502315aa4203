import { KitError } from '../errors/kit.error';
import { parseIdempotencyKey } from './idempotency-key.parser';

describe('parseIdempotencyKey', () => {
  it.each(['a', 'checkout 2026-11-23 #1', '~'.repeat(255), '"quoted"'])('accepts %j', (key) => {
    expect(parseIdempotencyKey(key)).toBe(key);
  });

  it.each([[''], ['x'.repeat(256)], ['caf\u00e9'], ['tab\there'], ['new\nline'], [['a', 'b']]])(
    'refuses %j with 400',
    (key) => {
      expect(() => parseIdempotencyKey(key)).toThrow(
        new KitError('invalid_input', [
          'Idempotency-Key must be 1 to 255 printable ASCII characters',
        ]),
      );
    },
  );
});
