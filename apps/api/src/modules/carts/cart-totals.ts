import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '@app/resource-kit';
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

/** Sets the cart's calculated attributes, in the caller's transaction (ordering sums them). */
export async function setCartTotals(
  manager: EntityManager,
  cartId: string,
  totals: Pick<Cart, 'subtotalCents' | 'itemCount'>,
): Promise<void> {
  await manager.getRepository(Cart).update({ id: cartId }, { ...totals, updatedAt: new Date() });
}
