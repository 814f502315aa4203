import { KitError } from '../errors/kit.error';
import { decodePathSegment, parseResourcePath, queryStringOf } from './resource-path.parser';

const isType = (segment: string) => segment === 'products';

describe('parseResourcePath', () => {
  it.each([
    ['/products', { shape: 'collection', type: 'products' }],
    ['/products?limit=2', { shape: 'collection', type: 'products' }],
    ['/products/p1', { shape: 'item', type: 'products', id: 'p1' }],
    ['/products/p%201', { shape: 'item', type: 'products', id: 'p%201' }],
    [
      '/products/p1/revisions?limit=1',
      { shape: 'relationship', type: 'products', id: 'p1', relationship: 'revisions' },
    ],
  ])('reads %s', (url, expected) => {
    expect(parseResourcePath(url, '', isType)).toEqual(expected);
  });

  it.each([
    '/',
    '/products/',
    '/products//revisions',
    '/products/p1/revisions/',
    '/products/p1/revisions/x',
    '/Products',
    '/pro%64ucts',
    '/orders',
    '//products',
  ])('finds no resource path in %s', (url) => {
    expect(parseResourcePath(url, '', isType)).toBeUndefined();
  });

  it('reads paths under the base path only', () => {
    expect(parseResourcePath('/api/products/p1', '/api', isType)).toEqual({
      shape: 'item',
      type: 'products',
      id: 'p1',
    });
    expect(parseResourcePath('/products', '/api', isType)).toBeUndefined();
    expect(parseResourcePath('/apiproducts', '/api', isType)).toBeUndefined();
  });
});

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
