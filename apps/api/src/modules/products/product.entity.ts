import { Attribute, Resource, ResourceEntity, revisionsOf } from '@app/resource-kit';
import { CURRENCIES, type Currency } from './currencies';

@Resource({
  type: 'products',
  access: { list: 'public', read: 'public', create: 'admin', update: 'admin', delete: 'admin' },
  history: { target: () => ProductRevision, owner: 'productId' },
  toMany: { revisions: { target: () => ProductRevision, inverse: 'productId' } },
  indexes: [['name', 'id']],
})
export class Product extends ResourceEntity {
  @Attribute({ type: 'string', minLength: 1, maxLength: 200 })
  name!: string;

  @Attribute({ type: 'string', maxLength: 2000, optional: true, nullable: true })
  description!: string | null;

  @Attribute({ type: 'integer', min: 0 })
  priceCents!: number;

  @Attribute({ type: 'enum', values: CURRENCIES, optional: true, column: { default: 'EUR' } })
  currency!: Currency;

  @Attribute({ type: 'integer', min: 0 })
  stock!: number;
}

/** One row per create or update of a product, as it was then (stock moved by orders writes none). */
export const ProductRevision = revisionsOf(Product, {
  type: 'product_revisions',
  owner: 'productId',
  access: 'public',
});
