import { Injectable } from '@nestjs/common';
import {
  conflict,
  invalidInput,
  newRow,
  OnWrite,
  ResourceInput,
  ResourceService,
  type WriteContext,
} from '@app/resource-kit';
import { EntityManager, In } from 'typeorm';
import { CartItem } from '../cart-items/cart-item.entity';
import { recalculateCart } from '../cart-items/cart-totals';
import { lockCart } from '../carts/cart-totals';
import { OrderItem } from '../order-items/order-item.entity';
import { Product } from '../products/product.entity';
import { User } from '../users/user.entity';
import { Order } from './order.entity';

/**
 * Checkout (create): in one transaction, take the stock, write the order items at today's
 * names and prices, remove the checked-out cart items. Any shortage is 409 and nothing
 * changes. Cancelling returns the stock.
 */
@Injectable()
export class OrdersService extends ResourceService<Order> {
  protected override async beforeCreate(order: Order, write: WriteContext): Promise<void> {
    assertNotInThePast(order.requestedDeliveryDate);
    const { manager } = write;
    const items = await manager.getRepository(CartItem).findBy({ id: In(order.cartItemIds!) });
    const cartIds = [...new Set(items.map((item) => item.cartId))];
    if (cartIds.length !== 1) throw invalidInput(['data.cart_item_ids must come from one cart']);
    const cart = await lockCart(manager, this.transactions, cartIds[0]);
    const products = await this.takeStock(manager, items);
    const lines = items.map((item) => this.orderLine(order, item, products.get(item.productId)!));
    // Inserted with the order, after its row (the kit sends a created row first).
    for (const line of lines) write.record(OrderItem, line);
    const currencies = new Set([...products.values()].map((product) => product.currency));
    if (currencies.size > 1)
      throw conflict('the items are priced in different currencies; check them out separately');
    Object.assign(order, {
      status: 'placed',
      currency: cart!.currency,
      totalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0),
      itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    });
    await manager.getRepository(CartItem).delete({ id: In(items.map((item) => item.id)) });
    await recalculateCart(manager, cart!.id);
  }

  protected override async beforeUpdate(
    order: Order,
    changes: ResourceInput,
    { manager }: WriteContext,
  ) {
    if (changes.get('status') !== 'cancelled') return;
    const lines = await manager.getRepository(OrderItem).findBy({ orderId: order.id });
    for (const line of sortedByProduct(lines)) {
      await manager
        .getRepository(Product)
        .increment({ id: line.productId }, 'stock', line.quantity);
    }
  }

  /**
   * Decrements each product's stock only where enough is left (one conditional UPDATE per
   * product, in a fixed order so that concurrent checkouts cannot deadlock).
   */
  // Orders keep their customers and products: what they were is the order's record. (The
  // foreign keys would refuse too, with a vaguer message.)
  @OnWrite(() => User, 'deleting')
  async keepCustomer(user: User, { manager }: WriteContext): Promise<void> {
    if (await manager.getRepository(Order).existsBy({ userId: user.id })) {
      throw conflict('users with orders cannot be deleted');
    }
  }

  @OnWrite(() => Product, 'deleting')
  async keepProduct(product: Product, { manager }: WriteContext): Promise<void> {
    if (await manager.getRepository(OrderItem).existsBy({ productId: product.id })) {
      throw conflict('products in an order cannot be deleted');
    }
  }

  private async takeStock(
    manager: EntityManager,
    items: CartItem[],
  ): Promise<Map<string, Product>> {
    for (const item of sortedByProduct(items)) {
      const result = await manager
        .createQueryBuilder()
        .update(Product)
        .set({ stock: () => 'stock - :quantity' })
        .where('id = :productId AND stock >= :quantity', {
          productId: item.productId,
          quantity: item.quantity,
        })
        .execute();
      if (!result.affected) throw conflict(`not enough stock for product ${item.productId}`);
    }
    const products = await manager
      .getRepository(Product)
      .findBy({ id: In(items.map((item) => item.productId)) });
    return new Map(products.map((product) => [product.id, product]));
  }

  private orderLine(order: Order, item: CartItem, product: Product): OrderItem {
    return Object.assign(new OrderItem(), {
      ...newRow(),
      orderId: order.id,
      productId: product.id,
      name: product.name,
      quantity: item.quantity,
      unitPriceCents: product.priceCents,
      lineTotalCents: product.priceCents * item.quantity,
    });
  }
}

function sortedByProduct<T extends { productId: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
}

function assertNotInThePast(date: string | null | undefined): void {
  const today = new Date().toISOString().slice(0, 10);
  if (date && date < today)
    throw invalidInput([`data.requested_delivery_date must not be before today (${today})`]);
}
