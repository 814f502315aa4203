import { entityTag, ifMatchAllows, ifNoneMatchHits } from './entity-tag';

describe('entityTag', () => {
  const cart = { type: 'carts', id: 'c1', subtotal_cents: 500, item_count: 1 };

  it('is a quoted strong tag that ignores member order', () => {
    const tag = entityTag(cart);
    expect(tag).toMatch(/^"[\w-]{43}"$/);
    expect(entityTag({ item_count: 1, subtotal_cents: 500, id: 'c1', type: 'carts' })).toBe(tag);
  });

  it('changes when any member changes, calculated ones included', () => {
    expect(entityTag({ ...cart, subtotal_cents: 900 })).not.toBe(entityTag(cart));
    expect(entityTag({ ...cart, item_count: null })).not.toBe(entityTag(cart));
  });
});

describe('conditional headers', () => {
  const current = '"abc"';

  it.each([
    ['*', true],
    ['"abc"', true],
    ['"x", "abc"', true],
    ['W/"abc"', false],
    ['"abd"', false],
    ['abc', false],
    ['', false],
  ])('If-Match %j allows a write: %s', (header, allowed) => {
    expect(ifMatchAllows(header, current)).toBe(allowed);
  });

  it.each([
    ['*', true],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x",W/"abc"', true],
    ['"abd"', false],
    ['abc', false],
  ])('If-None-Match %j hits: %s', (header, hits) => {
    expect(ifNoneMatchHits(header, current)).toBe(hits);
  });
});
