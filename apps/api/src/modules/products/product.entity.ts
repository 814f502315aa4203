import { Attribute, Resource, ResourceEntity, revisionsOf } from '@app/resource-kit';
import { CURRENCIES, type Currency } from './currencies';

@Resource({
  type: 'products',
  description:
    'Something the shop sells, at a price, with its stock. Anyone may read; administrators change. Every create and update writes a revision.',
  access: { list: 'public', read: 'public', create: 'admin', update: 'admin', delete: 'admin' },
  history: { target: () => ProductRevision, owner: 'productId' },
  toMany: {
    revisions: {
      target: () => ProductRevision,
      inverse: 'productId',
      description:
        'The product as it was after each create and update (revision 1 is the creation).',
    },
  },
  answers: { delete: { 409: 'The product is in an order' } },
})
export class Product extends ResourceEntity {
  @Attribute({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'The product\u2019s name',
    indexed: true,
    searchable: true,
  })
  name!: string;

  @Attribute({
    type: 'string',
    maxLength: 2000,
    optional: true,
    nullable: true,
    description: 'What the product is, in a few sentences',
    searchable: true,
  })
  description!: string | null;

  @Attribute({
    type: 'integer',
    min: 0,
    description: 'Unit price in minor units of currency',
    indexed: true,
  })
  priceCents!: number;

  @Attribute({
    type: 'enum',
    values: CURRENCIES,
    optional: true,
    column: { default: 'EUR' },
    description: 'ISO 4217 currency of the price (default EUR)',
  })
  currency!: Currency;

  @Attribute({
    type: 'integer',
    min: 0,
    description: 'Units available; checkout takes from it, cancelling gives back',
  })
  stock!: number;

  @Attribute({
    type: 'integer',
    min: 0,
    optional: true,
    nullable: true,
    readableBy: 'admin',
    writableBy: 'admin',
    description: 'What a unit costs the shop, in minor units',
  })
  costCents!: number | null;
}

/** One row per create or update of a product, as it was then (stock moved by orders writes none). */
export const ProductRevision = revisionsOf(Product, {
  type: 'product_revisions',
  owner: 'productId',
  access: 'public',
});
