import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { CartItem } from '../cart-items/cart-item.entity';
import { CURRENCIES, type Currency } from '../products/currencies';
import { User } from '../users/user.entity';

/** Created with its user and sharing the user's id; its totals follow its items. */
@Resource({
  type: 'carts',
  owner: 'userId',
  access: { list: 'authenticated', read: 'authenticated' },
  toMany: { cart_items: { target: () => CartItem, inverse: 'cartId' } },
})
export class Cart extends ResourceEntity {
  @ToOne(() => User, { writable: false, onDelete: 'CASCADE' })
  userId!: string;

  @Attribute({ type: 'integer', writable: false, min: 0, column: { default: 0 } })
  subtotalCents!: number;

  @Attribute({ type: 'integer', writable: false, min: 0, column: { default: 0 } })
  itemCount!: number;

  @Attribute({ type: 'enum', values: CURRENCIES, writable: false, column: { default: 'EUR' } })
  currency!: Currency;
}
