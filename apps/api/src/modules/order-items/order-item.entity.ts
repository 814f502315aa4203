import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Order } from '../orders/order.entity';
import { Product } from '../products/product.entity';

/** A line of an order, priced and named as at checkout. */
@Resource({ type: 'order_items', access: { list: 'authenticated', read: 'authenticated' } })
export class OrderItem extends ResourceEntity {
  @ToOne(() => Order, { writable: false, onDelete: 'CASCADE' })
  orderId!: string;

  // A product in an order cannot be deleted (409): the foreign key refuses.
  @ToOne(() => Product, { writable: false })
  productId!: string;

  @Attribute({ type: 'string', maxLength: 200, writable: false })
  name!: string;

  @Attribute({ type: 'integer', writable: false, min: 1 })
  quantity!: number;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  unitPriceCents!: number;

  @Attribute({ type: 'integer', writable: false, min: 0 })
  lineTotalCents!: number;
}
