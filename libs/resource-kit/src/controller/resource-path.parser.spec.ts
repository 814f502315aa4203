import { KitError } from '../errors/kit.error';
import { decodePathSegment, queryStringOf } from './resource-path.parser';

describe('decodePathSegment', () => {
  it('percent-decodes, and refuses what is not UTF-8 with 400', () => {
    expect(decodePathSegment('p%201')).toBe('p 1');
    expect(decodePathSegment('%00')).toBe('\u0000');
    expect(() => decodePathSegment('%ED%A0%80')).toThrow(KitError);
    expect(() => decodePathSegment('%')).toThrow("Failed to decode param '%'");
  });
});

describe('queryStringOf', () => {
  it('is what follows the first ?, undecoded', () => {
    expect(queryStringOf('/products?filter[name]=a%20b&x=?')).toBe('filter[name]=a%20b&x=?');
    expect(queryStringOf('/products')).toBe('');
  });
});
