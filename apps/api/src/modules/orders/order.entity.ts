import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { CartItem } from '../cart-items/cart-item.entity';
import { OrderItem } from '../order-items/order-item.entity';
import { CURRENCIES, type Currency } from '../products/currencies';
import { User } from '../users/user.entity';

export const ORDER_STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Created by checking cart items out; afterwards only its status moves. */
@Resource({
  type: 'orders',
  owner: 'userId',
  access: {
    list: 'authenticated',
    read: 'authenticated',
    create: 'authenticated',
    update: 'authenticated',
  },
  toMany: { order_items: { target: () => OrderItem, inverse: 'orderId' } },
  indexes: [['userId', 'createdAt', 'id']],
  transitions: {
    property: 'status',
    moves: {
      placed: { paid: ['admin'], cancelled: ['admin', 'customer'] },
      paid: { shipped: ['admin'], cancelled: ['admin', 'customer'] },
      shipped: { delivered: ['admin'] },
    },
  },
})
export class Order extends ResourceEntity {
  @Attribute({
    type: 'ids',
    target: () => CartItem,
    writable: 'create',
    output: 'never',
    column: false,
  })
  cartItemIds?: string[];

  @Attribute({
    type: 'enum',
    values: ORDER_STATUSES,
    writable: 'patch',
    column: { default: 'placed' },
  })
  status!: OrderStatus;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  totalCents!: number;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  itemCount!: number;

  @Attribute({ type: 'enum', values: CURRENCIES, writable: false })
  currency!: Currency;

  @Attribute({ type: 'date', writable: 'create', optional: true, nullable: true })
  requestedDeliveryDate!: string | null;

  @ToOne(() => User, { writable: false })
  userId!: string;
}
