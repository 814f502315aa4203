import { Module } from '@nestjs/common';
import { domain } from './ordering.domain';
import { CartItemsModule } from '../modules/cart-items/cart-items.module';
import { OrderItemsModule } from '../modules/order-items/order-items.module';
import { OrdersModule } from '../modules/orders/orders.module';

/**
 * The ordering domain (ordering.domain.ts): its resource modules, booted together. Orders
 * first: their refusals of a product's delete run before the carts are emptied of it.
 */
@Module({ imports: [OrdersModule, CartItemsModule, OrderItemsModule] })
export class OrderingDomain {
  static readonly declaration = domain;
}
