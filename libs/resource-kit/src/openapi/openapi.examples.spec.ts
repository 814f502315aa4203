import { exampleOf } from './openapi.examples';

describe('exampleOf', () => {
  it('keeps numbers within their range, preferring a price-like value for cents', () => {
    expect(exampleOf({ type: 'integer', minimum: 1, maximum: 99 }, 'quantity')).toBe(1);
    expect(exampleOf({ type: 'integer', minimum: 3 }, 'rating')).toBe(3);
    expect(exampleOf({ type: 'integer', minimum: 0 }, 'price_cents')).toBe(1250);
    expect(exampleOf({ type: 'integer', maximum: 100 }, 'total_cents')).toBe(100);
    expect(exampleOf({ type: 'number', minimum: 0 }, 'weight')).toBe(1.5);
  });

  it('fits strings to their lengths and formats, and names ids as ids', () => {
    expect(exampleOf({ type: 'string', maxLength: 200 }, 'name')).toBe('name text');
    expect(exampleOf({ type: 'string', maxLength: 3 }, 'name')).toBe('nam');
    expect(exampleOf({ type: 'string', minLength: 12, maxLength: 64 }, 'secret')).toBe(
      'secret text.',
    );
    expect(exampleOf({ type: 'string', format: 'email' }, 'email')).toBe('ada@example.com');
    expect(exampleOf({ type: ['string', 'null'], format: 'date' })).toBe('2026-01-15');
    expect(exampleOf({ type: 'string', format: 'date-time' })).toBe('2026-01-15T09:30:00Z');
    expect(exampleOf({ type: 'string', maxLength: 36 }, 'cart_id')).toHaveLength(36);
  });

  it('takes constants, the first non-null enum value and branch, and every property', () => {
    expect(
      exampleOf({
        type: 'object',
        properties: {
          type: { const: 'widgets' },
          kind: { type: ['string', 'null'], enum: [null, 'small', 'large'] },
          subject: { oneOf: [{ type: 'null' }, { type: 'object', properties: {} }] },
          tags: { type: 'array', items: { type: 'boolean' } },
        },
      }),
    ).toEqual({ type: 'widgets', kind: 'small', subject: {}, tags: [true] });
  });
});
