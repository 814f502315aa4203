import { Injectable } from '@nestjs/common';
import { conflict, ResourceService, WriteContext } from '@app/resource-kit';
import { CartItem } from '../cart-items/cart-item.entity';
import { lockCart, recalculateCart } from '../carts/cart-totals';
import { OrderItem } from '../order-items/order-item.entity';
import { Product } from './product.entity';

@Injectable()
export class ProductsService extends ResourceService<Product> {
  // Orders keep their products (the foreign key would refuse too, with a vaguer message);
  // carts lose them, and their totals follow.
  protected override async beforeDelete(
    product: Product,
    { manager }: WriteContext,
  ): Promise<void> {
    if (await manager.getRepository(OrderItem).existsBy({ productId: product.id })) {
      throw conflict('products in an order cannot be deleted');
    }
    const items = await manager.getRepository(CartItem).findBy({ productId: product.id });
    const cartIds = [...new Set(items.map((item) => item.cartId))].sort();
    for (const cartId of cartIds) await lockCart(manager, this.transactions, cartId);
    await manager.getRepository(CartItem).delete({ productId: product.id });
    for (const cartId of cartIds) await recalculateCart(manager, cartId);
  }
}
