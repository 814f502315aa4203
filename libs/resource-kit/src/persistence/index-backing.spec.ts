import type { FilterCondition } from '../query/filter.parser';
import type { OrderKey } from '../query/order.parser';
import type { QueryableMember } from '../query/queryable-members';
import { IndexBacking, isCostly } from './index-backing';
import { likeYieldsTrigram } from './trigram-words';

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
// As Unicode's classes have it (SQLite; TrigramWords asks PostgreSQL).
const word = (c: string) => /[\p{L}\p{N}]/u.test(c);
const searchable = (value: string) => likeYieldsTrigram(value.toLowerCase(), word);
const by = (...properties: string[]): OrderKey[] =>
  [...properties, 'id'].map((property) => ({ member: member(property), direction: 'ASC' }));

describe('isCostly', () => {
  it('passes what the indexes serve: indexed operators, searchable substrings, one indexed key', () => {
    expect(isCostly(backing, [], by('createdAt'), searchable)).toBe(false);
    expect(
      isCostly(backing, [where('name', 'gte'), where('id', 'in', ['a'])], by('name'), searchable),
    ).toBe(false);
    expect(isCostly(backing, [where('name', 'contains', 'Tea')], by('createdAt'), searchable)).toBe(
      false,
    );
  });

  it('marks what no index serves', () => {
    expect(isCostly(backing, [where('name', 'ne')], by('createdAt'), searchable)).toBe(true);
    expect(isCostly(backing, [where('stock', 'eq', 1)], by('createdAt'), searchable)).toBe(true);
    expect(isCostly(backing, [where('id', 'contains', 'abcd')], by('createdAt'), searchable)).toBe(
      true,
    );
    expect(isCostly(backing, [], by('stock'), searchable)).toBe(true);
    expect(isCostly(backing, [], by('name', 'createdAt'), searchable)).toBe(true);
  });

  it('marks substrings the trigram index cannot look up', () => {
    for (const short of ['a', 'ab', '%', '_', '% _ %', '½¼', '']) {
      expect(searchable(short)).toBe(false);
      expect(
        isCostly(backing, [where('name', 'contains', short)], by('createdAt'), searchable),
      ).toBe(true);
    }
    for (const long of ['tea', '50%off', 'Äöü', '123', 'ΣΑΣ']) expect(searchable(long)).toBe(true);
  });
});

// pg_trgm's generate_wildcard_trgm on `%value%`: words padded on their non-wildcard sides.
describe('likeYieldsTrigram', () => {
  it('pads a word on the side of a non-word neighbour, not on the side of the wildcard', () => {
    // "ab " (a word before a blank), "  cd" (a word after one), "  b" (after one, at the end)
    for (const value of ['ab c', 'x cd', 'a b', ' ab', 'a-b', 'ab.', 'a%b'])
      expect([value, likeYieldsTrigram(value, word)]).toEqual([value, true]);
    // "a " is two characters; a lone word at both ends is unpadded
    for (const value of ['a ', 'ab', '. .', '--', ' '])
      expect([value, likeYieldsTrigram(value, word)]).toEqual([value, false]);
  });

  it('counts characters, not UTF-16 units, and asks which are word characters', () => {
    expect(likeYieldsTrigram('\u{1E030}\u{1E031}\u{1E032}', word)).toBe(true);
    expect(likeYieldsTrigram('\u{1E030}\u{1E031}', word)).toBe(false);
    // Unicode calls vulgar fractions digits; pg_trgm under glibc does not.
    expect(likeYieldsTrigram('½½½', word)).toBe(true);
    expect(likeYieldsTrigram('½½½', (c) => c !== '½')).toBe(false);
  });
});
