import type { EntityManager } from 'typeorm';
import { setCartTotals } from '../carts/cart-totals';
import { CartItem } from './cart-item.entity';

/** Recomputes the cart's calculated attributes from its items, in the caller's transaction. */
export async function recalculateCart(manager: EntityManager, cartId: string): Promise<void> {
  const totals = await manager
    .getRepository(CartItem)
    .createQueryBuilder('item')
    .select('COALESCE(SUM(item.line_total_cents), 0)', 'subtotal')
    .addSelect('COALESCE(SUM(item.quantity), 0)', 'count')
    .where('item.cart_id = :cartId', { cartId })
    .getRawOne<{ subtotal: string | number; count: string | number }>();
  await setCartTotals(manager, cartId, {
    subtotalCents: Number(totals?.subtotal ?? 0),
    itemCount: Number(totals?.count ?? 0),
  });
}
