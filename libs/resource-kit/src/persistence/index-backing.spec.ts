import type { FilterCondition } from '../query/filter.parser';
import type { OrderKey } from '../query/order.parser';
import type { QueryableMember } from '../query/queryable-members';
import { IndexBacking, isCostly, searchableSubstring } from './index-backing';

const member = (property: string): QueryableMember => ({
  name: property,
  property,
  type: 'string',
  nullable: false,
});
const backing: IndexBacking = {
  filters: new Set(['id', 'name']),
  orders: new Set(['id', 'createdAt', 'name']),
  searches: new Set(['name']),
};
const where = (property: string, operator: string, value: unknown = 'x') =>
  ({ member: member(property), operator, value }) as FilterCondition;
const by = (...properties: string[]): OrderKey[] =>
  [...properties, 'id'].map((property) => ({ member: member(property), direction: 'ASC' }));

describe('isCostly', () => {
  it('passes what the indexes serve: indexed operators, searchable substrings, one indexed key', () => {
    expect(isCostly(backing, [], by('createdAt'))).toBe(false);
    expect(isCostly(backing, [where('name', 'gte'), where('id', 'in', ['a'])], by('name'))).toBe(
      false,
    );
    expect(isCostly(backing, [where('name', 'contains', 'Tea')], by('createdAt'))).toBe(false);
  });

  it('marks what no index serves', () => {
    expect(isCostly(backing, [where('name', 'ne')], by('createdAt'))).toBe(true);
    expect(isCostly(backing, [where('stock', 'eq', 1)], by('createdAt'))).toBe(true);
    expect(isCostly(backing, [where('id', 'contains', 'abcd')], by('createdAt'))).toBe(true);
    expect(isCostly(backing, [], by('stock'))).toBe(true);
    expect(isCostly(backing, [], by('name', 'createdAt'))).toBe(true);
  });

  it('marks substrings the trigram index cannot look up', () => {
    for (const short of ['a', 'ab', '%', '_', 'a%b', '% _ %', 'ab cd']) {
      expect(searchableSubstring(short)).toBe(false);
      expect(isCostly(backing, [where('name', 'contains', short)], by('createdAt'))).toBe(true);
    }
    for (const long of ['tea', '50%off', 'Äöü', '123', 'ΣΑΣ'])
      expect(searchableSubstring(long)).toBe(true);
  });
});
