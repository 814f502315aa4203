import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { ToOne } from '../decorators/to-one.decorator';
import type { Operation } from './definition';
import { readResourceDefinition } from './definition.reader';

@Resource({ type: 'carts', access: { list: 'public', read: 'public' } })
class Cart extends ResourceEntity {}

@Resource({
  type: 'cart_items',
  access: { list: 'public', create: 'public', read: 'public', update: 'public', delete: 'public' },
  toMany: { notes: { target: () => Cart, inverse: 'cartId' } },
})
class CartItem extends ResourceEntity {
  @Attribute({ type: 'integer', min: 1 }) quantity!: number;
  @Attribute({ type: 'string', maxLength: 40, optional: true, nullable: true }) giftNote!: string;
  @Attribute({ type: 'string', writable: 'create' }) productCode!: string;
  @Attribute({ type: 'integer', writable: false }) priceCents!: number;
  @Attribute({ type: 'string', output: 'never', column: false }) couponSecret!: string;
  @ToOne(() => Cart, { writable: 'create' }) cartId!: string;
  @ToOne(() => Cart, { writable: false, nullable: true }) originId!: string | null;
}

const attributeOf = (entity: typeof CartItem, name: string, casing?: 'camelCase') =>
  readResourceDefinition(entity, casing).attributeByName.get(name);

describe('readResourceDefinition', () => {
  const items = readResourceDefinition(CartItem);

  it('reads the type, the entity and the operations', () => {
    expect(items.type).toBe('cart_items');
    expect(items.entity).toBe(CartItem);
    expect([...items.operations]).toEqual(['list', 'create', 'read', 'update', 'delete']);
  });

  it('uses snake_case wire names by default and keeps the entity property', () => {
    expect(items.attributes.map((a) => [a.name, a.property])).toEqual([
      ['created_at', 'createdAt'],
      ['updated_at', 'updatedAt'],
      ['quantity', 'quantity'],
      ['gift_note', 'giftNote'],
      ['product_code', 'productCode'],
      ['price_cents', 'priceCents'],
      ['coupon_secret', 'couponSecret'],
      ['cart_id', 'cartId'],
      ['origin_id', 'originId'],
    ]);
    expect([...items.attributeByName.keys()]).toEqual(items.attributes.map((a) => a.name));
  });

  it('uses the property names as wire names in camelCase', () => {
    const camel = readResourceDefinition(CartItem, 'camelCase');
    expect(camel.attributes.map((a) => a.name)).toEqual(camel.attributes.map((a) => a.property));
    expect(attributeOf(CartItem, 'giftNote', 'camelCase')?.property).toBe('giftNote');
    expect(camel.attributeByName.has('gift_note')).toBe(false);
  });

  it('inherits created_at and updated_at as read-only, optional times; id is no attribute', () => {
    for (const name of ['created_at', 'updated_at']) {
      expect(attributeOf(CartItem, name)).toMatchObject({
        type: 'time',
        required: false,
        nullable: false,
        writable: { create: false, patch: false },
        output: 'always',
      });
    }
    expect(items.attributeByName.has('id')).toBe(false);
    expect(items.attributes.some((a) => a.property === 'id')).toBe(false);
  });

  it('derives writability from `writable`', () => {
    const writable = (name: string) => attributeOf(CartItem, name)?.writable;
    expect(writable('quantity')).toEqual({ create: true, patch: true });
    expect(writable('product_code')).toEqual({ create: true, patch: false });
    expect(writable('price_cents')).toEqual({ create: false, patch: false });
    expect(writable('cart_id')).toEqual({ create: true, patch: false });
    expect(writable('origin_id')).toEqual({ create: false, patch: false });
  });

  it('requires members unless optional or read-only', () => {
    const required = items.attributes.filter((a) => a.required).map((a) => a.name);
    expect(required).toEqual(['quantity', 'product_code', 'coupon_secret', 'cart_id']);
  });

  it('keeps the declared shape of each attribute', () => {
    expect(attributeOf(CartItem, 'quantity')).toMatchObject({ type: 'integer', min: 1 });
    expect(attributeOf(CartItem, 'gift_note')).toMatchObject({ maxLength: 40, nullable: true });
    expect(attributeOf(CartItem, 'coupon_secret')).toMatchObject({ output: 'never' });
    expect(attributeOf(CartItem, 'product_code')?.maxLength).toBe(255);
  });

  it('maps each to-one relationship name to its id attribute', () => {
    expect([...items.toOne.keys()]).toEqual(['cart', 'origin']);
    const cart = items.toOne.get('cart');
    expect(cart).toBe(items.attributeByName.get('cart_id'));
    expect(cart?.reference?.relationship).toBe('cart');
    expect(cart?.reference?.target()).toBe(Cart);
    expect(cart).toMatchObject({ type: 'string', maxLength: 36 });
  });

  it('names to-many relationships as declared', () => {
    const notes = items.toMany.get('notes');
    expect([...items.toMany.keys()]).toEqual(['notes']);
    expect(notes).toMatchObject({ name: 'notes', inverse: 'cartId' });
    expect(notes?.target()).toBe(Cart);
    expect(readResourceDefinition(Cart).toMany.size).toBe(0);
  });

  it('adds the to-many sides that resources holding the key declare, read on first use', () => {
    @Resource({ type: 'shelves', access: { read: 'public' }, toMany: {} })
    class Shelf extends ResourceEntity {}
    // Read before the declaring class exists, as a controller reads its resource's type.
    const shelves = readResourceDefinition(Shelf);
    @Resource({ type: 'books', access: { read: 'public' } })
    class Book extends ResourceEntity {
      @ToOne(() => Shelf, { inverse: { name: 'books', description: 'On the shelf' } })
      shelfId!: string;
    }
    const books = shelves.toMany.get('books');
    expect(books).toMatchObject({ name: 'books', inverse: 'shelfId', description: 'On the shelf' });
    expect(books?.target()).toBe(Book);
  });

  it('refuses a to-many name declared both by the resource and by one holding the key', () => {
    @Resource({
      type: 'racks',
      access: { read: 'public' },
      toMany: { boxes: { target: () => Box, inverse: 'rackId' } },
    })
    class Rack extends ResourceEntity {}
    @Resource({ type: 'boxes', access: { read: 'public' } })
    class Box extends ResourceEntity {
      @ToOne(() => Rack, { inverse: { name: 'boxes' } })
      rackId!: string;
    }
    expect(() => readResourceDefinition(Rack).toMany).toThrow(
      'Rack: the to-many relationship boxes is declared twice',
    );
  });

  it('does not leak members between classes that share a base', () => {
    expect(readResourceDefinition(Cart).attributes.map((a) => a.name)).toEqual([
      'created_at',
      'updated_at',
    ]);
  });

  it('freezes the definition, its attributes and their parts', () => {
    expect(Object.isFrozen(items)).toBe(true);
    expect(Object.isFrozen(items.attributes)).toBe(true);
    for (const attribute of items.attributes) {
      expect(Object.isFrozen(attribute)).toBe(true);
      expect(Object.isFrozen(attribute.writable)).toBe(true);
    }
    expect(Object.isFrozen(items.toOne.get('cart')?.reference)).toBe(true);
    expect(Object.isFrozen(items.toMany.get('notes'))).toBe(true);
  });

  it('builds a definition once per class and casing', () => {
    expect(readResourceDefinition(CartItem)).toBe(items);
    expect(readResourceDefinition(CartItem, 'snake_case')).toBe(items);
    const camel = readResourceDefinition(CartItem, 'camelCase');
    expect(camel).not.toBe(items);
    expect(readResourceDefinition(CartItem, 'camelCase')).toBe(camel);
  });

  it('refuses a class without @Resource', () => {
    class Plain extends ResourceEntity {}
    expect(() => readResourceDefinition(Plain)).toThrow('Plain is not decorated with @Resource');
  });

  it('refuses unknown operations', () => {
    @Resource({
      type: 'odd_things',
      access: { read: 'public', ['replace' as Operation]: 'public' },
    })
    class OddThing extends ResourceEntity {}
    expect(() => readResourceDefinition(OddThing)).toThrow('OddThing: unknown operations replace');
  });

  it('reads a deprecated creation, and refuses dates it could not send as headers', () => {
    const deprecated = (since: string, sunset?: string) => {
      @Resource({
        type: 'drafts',
        access: { create: 'public' },
        deprecated: { creation: { since, sunset, successor: 'Use POST /posts' } },
      })
      class Draft extends ResourceEntity {}
      return () => readResourceDefinition(Draft);
    };
    expect(deprecated('2026-11-01', '2027-06-30')().deprecation).toEqual({
      since: '2026-11-01',
      sunset: '2027-06-30',
      successor: 'Use POST /posts',
    });
    expect(readResourceDefinition(Cart).deprecation).toBeUndefined();
    expect(deprecated('1 Nov 2026')).toThrow('Draft: deprecation dates are YYYY-MM-DD');
    expect(deprecated('2026-11-01', '2026-13-01')).toThrow('deprecation dates are YYYY-MM-DD');
    expect(deprecated('2026-11-01', '2026-10-01')).toThrow(
      'Draft: the sunset (2026-10-01) comes before the deprecation (2026-11-01)',
    );
  });
});
