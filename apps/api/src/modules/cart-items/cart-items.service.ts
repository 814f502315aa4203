import { Injectable } from '@nestjs/common';
import {
  conflict,
  OnCommitted,
  OnWrite,
  type CommittedEvent,
  ResourceService,
  WriteAction,
  type WriteContext,
} from '@app/resource-kit';
import { Not } from 'typeorm';
import { lockCart } from '../carts/cart-totals';
import { recalculateCart } from './cart-totals';
import { Product } from '../products/product.entity';
import { CartItem } from './cart-item.entity';

/** Prices each line from its product, keeps one line per product, and the cart's totals true. */
@Injectable()
export class CartItemsService extends ResourceService<CartItem> {
  protected override async beforeCreate(item: CartItem, write: WriteContext): Promise<void> {
    const cart = await lockCart(write.manager, this.transactions, item.cartId);
    const taken = await write.manager
      .getRepository(CartItem)
      .existsBy({ cartId: item.cartId, productId: item.productId });
    if (taken)
      throw conflict(
        'this product is already in the cart; change the quantity of its item instead',
      );
    const product = await this.price(item, write);
    if (cart && product.currency !== cart.currency) {
      throw conflict(
        `the cart holds ${cart.currency}; this product is priced in ${product.currency}`,
      );
    }
  }

  protected override async beforeUpdate(
    item: CartItem,
    _changes: unknown,
    write: WriteContext,
  ): Promise<void> {
    await lockCart(write.manager, this.transactions, item.cartId);
    await this.price(item, write);
  }

  protected override async beforeDelete(item: CartItem, write: WriteContext): Promise<void> {
    await lockCart(write.manager, this.transactions, item.cartId);
  }

  protected override async afterWrite(
    item: CartItem,
    _action: WriteAction,
    write: WriteContext,
  ): Promise<void> {
    await recalculateCart(write.manager, item.cartId);
  }

  /** A product deleted leaves the carts it was in, and their totals follow. */
  @OnWrite(() => Product, 'deleting')
  async removeProduct(product: Product, { manager }: WriteContext): Promise<void> {
    const items = await manager.getRepository(CartItem).findBy({ productId: product.id });
    const cartIds = [...new Set(items.map((item) => item.cartId))].sort();
    for (const cartId of cartIds) await lockCart(manager, this.transactions, cartId);
    await manager.getRepository(CartItem).delete({ productId: product.id });
    for (const cartId of cartIds) await recalculateCart(manager, cartId);
  }

  /**
   * A product's new price reaches the cart lines that hold it once the product's write has
   * committed: a change to the catalog does not wait for, nor lock, every cart that holds the
   * product. Until then a line shows its price of before; checkout prices from the product.
   * Run again after a failure, it finds the lines already priced and changes nothing.
   */
  @OnCommitted(() => Product, 'updated')
  async repriceLines({ subject }: CommittedEvent): Promise<void> {
    await this.transactions.run(async (manager) => {
      const product = await manager.getRepository(Product).findOneBy({ id: subject.id });
      if (!product) return;
      const items = manager.getRepository(CartItem);
      const stale = await items.findBy({
        productId: product.id,
        unitPriceCents: Not(product.priceCents),
      });
      for (const cartId of [...new Set(stale.map((item) => item.cartId))].sort()) {
        await lockCart(manager, this.transactions, cartId);
        // Read again under the cart's lock: its quantity may have changed, or it may be gone.
        const item = await items.findOneBy({ cartId, productId: product.id });
        if (!item) continue;
        await items.update(
          { id: item.id },
          {
            unitPriceCents: product.priceCents,
            lineTotalCents: product.priceCents * item.quantity,
            updatedAt: new Date(),
          },
        );
        await recalculateCart(manager, cartId);
      }
    });
  }

  private async price(item: CartItem, { manager }: WriteContext): Promise<Product> {
    const product = await manager.getRepository(Product).findOneByOrFail({ id: item.productId });
    if (item.quantity > product.stock) {
      throw conflict(
        `only ${product.stock} of this product ${product.stock === 1 ? 'is' : 'are'} in stock`,
      );
    }
    item.unitPriceCents = product.priceCents;
    item.lineTotalCents = product.priceCents * item.quantity;
    return product;
  }
}
