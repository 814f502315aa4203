import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Order } from '../orders/order.entity';
import { Product } from '../products/product.entity';

/** A line of an order, priced and named as at checkout. */
@Resource({
  type: 'order_items',
  description: 'A line of an order, named and priced as at checkout. Read-only.',
  // Whoever owns the order owns its lines (SPEC 1.15).
  owner: 'orderId.userId',
  access: { list: 'authenticated', read: 'authenticated' },
})
export class OrderItem extends ResourceEntity {
  @ToOne(() => Order, {
    writable: false,
    onDelete: 'CASCADE',
    description: 'The order the line belongs to',
  })
  orderId!: string;

  // A product in an order cannot be deleted (409): the foreign key refuses.
  @ToOne(() => Product, { writable: false, description: 'The product bought' })
  productId!: string;

  @Attribute({
    type: 'string',
    maxLength: 200,
    writable: false,
    description: 'The product\u2019s name at checkout',
  })
  name!: string;

  @Attribute({ type: 'integer', writable: false, min: 1, description: 'How many units' })
  quantity!: number;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    description: 'The unit price at checkout, in minor units',
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
