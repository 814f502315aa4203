import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { KitError } from '../errors/kit.error';
import { readResourceDefinition } from '../metadata/definition.reader';
import type { PaginationStyle } from './pagination';
import { parseResourceQuery } from './query-parameters.parser';

@Resource({ type: 'parts', access: { list: 'public', read: 'public' } })
class Part extends ResourceEntity {
  @Attribute({ type: 'string' }) name!: string;
  @Attribute({ type: 'integer' }) priceCents!: number;
}

const parts = readResourceDefinition(Part);
const limits = { default: 25, max: 100 };
type Shape = 'collection' | 'relationship' | 'item' | 'to-one';

const parse = (
  query: string,
  shape: Shape = 'collection',
  pagination: PaginationStyle = 'cursor',
) => parseResourceQuery(query, shape, parts, { pagination, limits });

function problemsOf(query: string, shape?: Shape, pagination?: PaginationStyle) {
  try {
    parse(query, shape, pagination);
  } catch (error) {
    if (!(error instanceof KitError)) throw error;
    expect(error.code).toBe('invalid_input');
    return error.messages;
  }
  throw new Error('expected invalid input');
}

describe('parseResourceQuery: parameters per path shape', () => {
  it('gives a collection the default page when the query is empty', () => {
    expect(parse('').page).toEqual({ style: 'cursor', limit: 25, cursor: undefined });
    expect(parse('').filters).toEqual([]);
  });

  it.each<Shape>(['collection', 'relationship'])('lets a %s take every parameter', (shape) => {
    const query = parse('filter[name]=bolt&order=-price_cents&limit=10&cursor=abc', shape);
    expect(query.page).toEqual({ style: 'cursor', limit: 10, cursor: 'abc' });
    expect(query.filters).toHaveLength(1);
    expect(query.order.map((key) => [key.member.name, key.direction])).toEqual([
      ['price_cents', 'DESC'],
      ['id', 'DESC'],
    ]);
  });

  it.each<Shape>(['item', 'to-one'])('lets a single resource (%s) take only filter', (shape) => {
    expect(parse('filter[name]=bolt', shape).filters).toHaveLength(1);
    expect(problemsOf('order=name&limit=5&cursor=abc', shape)).toEqual([
      'query parameter order is not allowed here',
      'query parameter limit is not allowed here',
      'query parameter cursor is not allowed here',
    ]);
  });

  it('rejects unknown parameters, including prototype names', () => {
    expect(problemsOf('sort=name&__proto__=1&constructor=x&Limit=5')).toEqual([
      'query parameter sort is not allowed here',
      'query parameter __proto__ is not allowed here',
      'query parameter constructor is not allowed here',
      'query parameter Limit is not allowed here',
    ]);
  });

  it('reads only the parameters of the configured pagination style', () => {
    expect(problemsOf('offset=5', 'collection', 'cursor')).toEqual([
      'query parameter offset is not allowed here',
    ]);
    expect(problemsOf('cursor=abc', 'collection', 'offset')).toEqual([
      'query parameter cursor is not allowed here',
    ]);
    expect(problemsOf('limit=5', 'collection', 'page')).toEqual([
      'query parameter limit is not allowed here',
    ]);
  });
});

describe('parseResourceQuery: page size', () => {
  it.each([
    ['1', 1],
    ['100', 100],
    ['025', 25],
  ])('accepts limit=%s', (text, limit) => {
    expect(parse(`limit=${text}`).page).toMatchObject({ limit });
  });

  it.each(['0', '101', '-1', '1.5', '1e2', 'ten', '', '+5', ' 5', '9999999999'])(
    'rejects limit=%p',
    (text) => {
      expect(problemsOf(`limit=${encodeURIComponent(text)}`)).toEqual([
        'limit must be an integer from 1 to 100',
      ]);
    },
  );

  it('takes the default and the maximum from the policy', () => {
    const policy = { pagination: 'cursor', limits: { default: 10, max: 50 } } as const;
    expect(parseResourceQuery('', 'collection', parts, policy).page).toMatchObject({ limit: 10 });
    expect(() => parseResourceQuery('limit=51', 'collection', parts, policy)).toThrow(
      'limit must be an integer from 1 to 50',
    );
  });

  it('turns offset and page parameters into an offset request', () => {
    expect(parse('offset=40&limit=20', 'collection', 'offset').page).toEqual({
      style: 'offset',
      limit: 20,
      offset: 40,
    });
    expect(parse('page=3&per_page=10', 'collection', 'page').page).toEqual({
      style: 'offset',
      limit: 10,
      offset: 20,
    });
    expect(parse('', 'collection', 'page').page).toEqual({ style: 'offset', limit: 25, offset: 0 });
  });

  it('checks the bounds of offset, page and per_page', () => {
    expect(problemsOf('offset=-1', 'collection', 'offset')).toEqual([
      'offset must be an integer from 0 to 1000000000',
    ]);
    expect(problemsOf('page=0&per_page=101', 'collection', 'page')).toEqual([
      'per_page must be an integer from 1 to 100',
      'page must be an integer from 1 to 1000000000',
    ]);
  });
});

describe('parseResourceQuery: duplicates and several problems', () => {
  it('rejects a parameter given twice, even with the same value', () => {
    expect(problemsOf('limit=5&limit=5')).toEqual(['limit is given more than once']);
    expect(problemsOf('cursor=a&cursor=b')).toEqual(['cursor is given more than once']);
    expect(problemsOf('filter[name]=a&filter[name]=b')).toEqual([
      'filter[name] is given more than once',
    ]);
  });

  it('reports every problem at once', () => {
    expect(problemsOf('limit=0&limit=5&page=2&filter[colour]=red')).toEqual([
      'limit is given more than once',
      'query parameter page is not allowed here',
      'filter[colour]: colour is not an attribute of parts',
      'limit must be an integer from 1 to 100',
    ]);
  });
});

describe('parseResourceQuery: binding', () => {
  it('is the same for the same filters in another order', () => {
    const a = parse('filter[name]=bolt&filter[price_cents]=5&order=name');
    const b = parse('order=name&filter[price_cents]=5&filter[name]=bolt');
    expect(a.binding).toBe(b.binding);
  });

  it('differs when a filter value or the order differs, but not with the page', () => {
    const base = parse('filter[name]=bolt&order=name').binding;
    expect(parse('filter[name]=nut&order=name').binding).not.toBe(base);
    expect(parse('filter[name]=bolt&order=-name').binding).not.toBe(base);
    expect(parse('filter[name]=bolt&order=name&limit=5&cursor=x').binding).toBe(base);
  });
});
