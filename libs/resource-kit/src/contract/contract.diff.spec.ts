import { Attribute, Polymorphic, Resource, ResourceEntity, ToOne } from '../index';
import type { PolymorphicReference } from '../index';
import { readResourceDefinition } from '../metadata/definition.reader';
import { Contract, describeContract } from './contract';
import { breakingChanges } from './contract.diff';

@Resource({
  type: 'shelves',
  access: { list: 'public', read: 'public', create: 'admin' },
  deprecated: {
    creation: { since: '2026-11-01', successor: 'Use POST /books', sunset: '2027-06-30' },
  },
})
class Shelf extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 50 })
  label!: string;
}

@Resource({
  type: 'books',
  access: { list: 'public', read: 'public', create: 'authenticated', update: 'authenticated' },
  toMany: { notes: { target: () => Shelf, inverse: 'shelfId' } },
})
class Book extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 100 })
  title!: string;

  @Attribute({ type: 'enum', values: ['new', 'used'], optional: true })
  condition!: string;

  @Attribute({ type: 'integer', min: 0, max: 1000, optional: true, nullable: true })
  pages!: number | null;

  @ToOne(() => Shelf)
  shelfId!: string;

  @Polymorphic()
  origin!: PolymorphicReference;
}

const contract = (): Contract =>
  describeContract([readResourceDefinition(Book), readResourceDefinition(Shelf)]);
const changed = (edit: (next: Contract) => void) => {
  const next = structuredClone(contract());
  edit(next);
  return breakingChanges(contract(), next);
};

describe('breakingChanges', () => {
  it('describes relationships by target type', () => {
    expect(contract().resources.books).toMatchObject({
      toOne: { shelf: 'shelves' },
      toMany: { notes: 'shelves' },
      polymorphic: ['origin'],
    });
  });

  it('records a deprecated creation, and takes deprecating or un-deprecating as additive', () => {
    expect(contract().resources.shelves.deprecated).toEqual({
      create: { since: '2026-11-01', sunset: '2027-06-30' },
    });
    expect(contract().resources.books).not.toHaveProperty('deprecated');
    expect(
      changed((next) => {
        next.resources.books.deprecated = { create: { since: '2026-12-01', sunset: null } };
        delete next.resources.shelves.deprecated;
      }),
    ).toEqual([]);
    expect(
      changed((next) => {
        next.resources.shelves.deprecated!.create.sunset = '2028-01-01';
      }),
    ).toEqual([]);
  });

  it('finds nothing between a contract and itself, or when things are added', () => {
    expect(breakingChanges(contract(), contract())).toEqual([]);
    // Widening who reads or writes a member (SPEC 1.16) is additive.
    const narrow = structuredClone(contract());
    narrow.resources.books.attributes.pages.readableBy = 'admin';
    narrow.resources.books.attributes.pages.writableBy = 'admin';
    expect(breakingChanges(narrow, contract())).toEqual([]);
    expect(
      changed((next) => {
        next.resources.books.operations.delete = 'admin';
        next.resources.books.attributes.condition.values!.push('mint');
        next.resources.books.attributes.isbn = {
          ...next.resources.books.attributes.title,
          requiredOnCreate: false,
        };
        next.resources.books.attributes.title.maxLength = 200;
        next.resources.books.operations.create = 'public';
        next.resources.magazines = next.resources.shelves;
      }),
    ).toEqual([]);
    const beforeHeaders = contract();
    delete beforeHeaders.resources.books.headers;
    expect(breakingChanges(beforeHeaders, contract())).toEqual([]);
  });

  it('describes the headers of safe retries per operation', () => {
    expect(contract().resources.books.headers).toEqual({
      create: { request: ['Idempotency-Key'], response: ['ETag', 'Idempotent-Replayed'] },
      list: { request: [], response: [] },
      read: { request: ['If-None-Match'], response: ['ETag'] },
      update: { request: ['If-Match'], response: ['ETag'] },
    });
  });

  it.each([
    [
      'a removed resource',
      (n: Contract) => delete n.resources.shelves,
      'shelves: resource removed',
    ],
    [
      'a removed verb',
      (n: Contract) => delete n.resources.books.operations.update,
      'books: operation update removed',
    ],
    [
      'stricter access',
      (n: Contract) => (n.resources.books.operations.list = 'authenticated'),
      'books: operation list now needs authenticated access (was public)',
    ],
    [
      'a request header no longer honoured',
      (n: Contract) => (n.resources.books.headers!.create.request = []),
      'books: operation create no longer honours Idempotency-Key',
    ],
    [
      'a response header no longer sent',
      (n: Contract) => (n.resources.books.headers!.read.response = []),
      'books: operation read no longer sends ETag',
    ],
    [
      'a member narrowed from every caller to administrators (SPEC 1.16)',
      (n: Contract) => (n.resources.books.attributes.pages.readableBy = 'admin'),
      'books.pages: now read by admin only (was every caller)',
    ],
    [
      'a member written by fewer callers',
      (n: Contract) => (n.resources.books.attributes.pages.writableBy = 'authenticated'),
      'books.pages: now written by authenticated only (was every caller)',
    ],
    [
      'a removed attribute',
      (n: Contract) => delete n.resources.books.attributes.pages,
      'books.pages: attribute removed',
    ],
    [
      'a removed relationship',
      (n: Contract) => delete n.resources.books.toOne.shelf,
      'books: relationship shelf removed',
    ],
    [
      'a retargeted relationship',
      (n: Contract) => (n.resources.books.toMany.notes = 'books'),
      'books: relationship notes now leads to books (was shelves)',
    ],
    [
      'a removed polymorphic reference',
      (n: Contract) => (n.resources.books.polymorphic = []),
      'books: reference origin removed',
    ],
    [
      'a removed enum value',
      (n: Contract) => (n.resources.books.attributes.condition.values = ['new']),
      'books.condition: enum values removed: used',
    ],
    [
      'a changed type',
      (n: Contract) => (n.resources.books.attributes.pages.type = 'number'),
      'books.pages: type changed from integer to number',
    ],
    [
      'a changed format',
      (n: Contract) => (n.resources.books.attributes.title.format = 'email'),
      'books.title: format changed from null to email',
    ],
    [
      'an optional input made required',
      (n: Contract) => (n.resources.books.attributes.condition.requiredOnCreate = true),
      'books.condition: optional input made required',
    ],
    [
      'a new required input',
      (n: Contract) => (n.resources.books.attributes.isbn = n.resources.books.attributes.title),
      'books.isbn: new attribute required on create',
    ],
    [
      'an output that may now be null',
      (n: Contract) => (n.resources.books.attributes.title.nullable = true),
      'books.title: output may now be null',
    ],
    [
      'an output that may now be missing',
      (n: Contract) => (n.resources.books.attributes.title.output = 'never'),
      'books.title: output may now be missing',
    ],
    [
      'a tighter input limit',
      (n: Contract) => (n.resources.books.attributes.pages.max = 500),
      'books.pages: maximum lowered to 500',
    ],
    [
      'a sunset brought forward',
      (n: Contract) => (n.resources.shelves.deprecated!.create.sunset = '2027-01-31'),
      'shelves: sunset of creation brought forward to 2027-01-31 (was 2027-06-30)',
    ],
    [
      'an input no longer writable',
      (n: Contract) => (n.resources.books.attributes.title.writableOnPatch = false),
      'books.title: no longer writable on patch',
    ],
  ])('reports %s', (_what, edit, message) => {
    expect(changed(edit as (next: Contract) => void)).toContain(message);
  });
});
