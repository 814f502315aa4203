import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Cart } from '../carts/cart.entity';
import { Product } from '../products/product.entity';

// A cart shares its user's id, so the cart id is the owner's id.
@Resource({
  type: 'cart_items',
  owner: 'cartId',
  access: {
    list: 'authenticated',
    read: 'authenticated',
    create: 'authenticated',
    update: 'authenticated',
    delete: 'authenticated',
  },
  indexes: [['cartId', 'productId']],
})
export class CartItem extends ResourceEntity {
  @ToOne(() => Cart, { writable: 'create', onDelete: 'CASCADE' })
  cartId!: string;

  @ToOne(() => Product, { writable: 'create', onDelete: 'CASCADE' })
  productId!: string;

  @Attribute({ type: 'integer', min: 1, max: 99 })
  quantity!: number;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  unitPriceCents!: number;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  lineTotalCents!: number;
}
