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
  description:
    'Checking cart items out creates an order (stock is taken, the items leave the cart); afterwards only its status moves: placed, then paid or cancelled, paid to shipped or cancelled, shipped to delivered.',
  owner: 'userId',
  access: {
    list: 'authenticated',
    read: 'authenticated',
    create: 'authenticated',
    update: 'authenticated',
  },
  toMany: {
    order_items: {
      target: () => OrderItem,
      inverse: 'orderId',
      description: 'The lines of the order, as checked out.',
    },
  },
  indexes: [
    ['userId', 'createdAt', 'id'],
    ['status', 'createdAt', 'id'],
  ],
  answers: {
    create: {
      409: 'A product has too little stock, or the items are priced in different currencies',
    },
  },
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
    description: 'The items of one cart to check out (create only, never shown)',
  })
  cartItemIds?: string[];

  @Attribute({
    type: 'enum',
    values: ORDER_STATUSES,
    writable: 'patch',
    column: { default: 'placed' },
    description:
      'placed on checkout; PATCH moves it. A customer may cancel (from placed or paid); administrators make every move',
  })
  status!: OrderStatus;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    description: 'The sum of the lines, in minor units',
  })
  totalCents!: number;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    description: 'The sum of the lines\u2019 quantities',
  })
  itemCount!: number;

  @Attribute({
    type: 'enum',
    values: CURRENCIES,
    writable: false,
    description: 'ISO 4217 currency of the total',
  })
  currency!: Currency;

  @Attribute({
    type: 'date',
    writable: 'create',
    optional: true,
    nullable: true,
    description: 'The day the customer would like it delivered; not before today (UTC)',
  })
  requestedDeliveryDate!: string | null;

  @Attribute({
    type: 'string',
    maxLength: 2000,
    optional: true,
    nullable: true,
    readableBy: 'admin',
    writableBy: 'admin',
    description: 'A note on the order for the shop\u2019s staff',
  })
  adminNote!: string | null;

  // Declared here, where the key is: users know nothing of orders (docs/modules.md).
  @ToOne(() => User, {
    writable: false,
    description: 'The customer who ordered',
    inverse: { name: 'orders', description: 'The user\u2019s orders.' },
  })
  userId!: string;
}
