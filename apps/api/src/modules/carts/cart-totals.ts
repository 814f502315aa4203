import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '@app/resource-kit';
import { CartItem } from '../cart-items/cart-item.entity';
import { Cart } from './cart.entity';

/**
 * Locks the cart for the rest of the transaction, so that concurrent writes to its items
 * take turns; call it before touching the items.
 */
export async function lockCart(
  manager: EntityManager,
  transactions: TransactionRunner,
  cartId: string,
): Promise<Cart | null> {
  const query = manager
    .getRepository(Cart)
    .createQueryBuilder('cart')
    .where('cart.id = :cartId', { cartId });
  return transactions.lockForUpdate(query).getOne();
}

/** Recomputes the cart's calculated attributes from its items, in the caller's transaction. */
export async function recalculateCart(manager: EntityManager, cartId: string): Promise<void> {
  const totals = await manager
    .getRepository(CartItem)
    .createQueryBuilder('item')
    .select('COALESCE(SUM(item.line_total_cents), 0)', 'subtotal')
    .addSelect('COALESCE(SUM(item.quantity), 0)', 'count')
    .where('item.cart_id = :cartId', { cartId })
    .getRawOne<{ subtotal: string | number; count: string | number }>();
  await manager.getRepository(Cart).update(
    { id: cartId },
    {
      subtotalCents: Number(totals?.subtotal ?? 0),
      itemCount: Number(totals?.count ?? 0),
      updatedAt: new Date(),
    },
  );
}
