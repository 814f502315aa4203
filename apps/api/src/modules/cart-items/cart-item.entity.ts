import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Cart } from '../carts/cart.entity';
import { Product } from '../products/product.entity';

// A cart shares its user's id, so the cart id is the owner's id.
@Resource({
  type: 'cart_items',
  description:
    'A line of a cart: a product and its quantity, priced from the product. Creating, changing or deleting one updates the cart\u2019s totals.',
  owner: 'cartId',
  access: {
    list: 'authenticated',
    read: 'authenticated',
    create: 'authenticated',
    update: 'authenticated',
    delete: 'authenticated',
  },
  indexes: [['cartId', 'productId']],
  answers: {
    create: {
      409: 'The product is already in the cart, is priced in another currency than the cart, or has too little stock',
    },
    update: { 409: 'The product has too little stock for the quantity' },
  },
})
export class CartItem extends ResourceEntity {
  @ToOne(() => Cart, {
    writable: 'create',
    onDelete: 'CASCADE',
    description: 'The cart the item is in (the caller\u2019s own)',
    // Declared here: carts (accounts) know nothing of their items (ordering).
    inverse: { name: 'cart_items', description: 'The items in the cart.' },
  })
  cartId!: string;

  @ToOne(() => Product, {
    writable: 'create',
    onDelete: 'CASCADE',
    description: 'The product in the cart (once per cart)',
  })
  productId!: string;

  @Attribute({
    type: 'integer',
    min: 1,
    max: 99,
    description: 'How many units; at most the product\u2019s stock',
  })
  quantity!: number;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    description: 'The product\u2019s current price, in minor units',
  })
  unitPriceCents!: number;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    description: 'Unit price times quantity, in minor units',
  })
  lineTotalCents!: number;
}
