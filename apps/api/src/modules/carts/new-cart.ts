import { DEFAULT_CURRENCY } from '../products/currencies';
import type { Cart } from './cart.entity';

/** The empty cart every user gets with their account, under the user's own id. */
export function newCart(user: { id: string; createdAt: Date }): Partial<Cart> {
  return {
    id: user.id,
    userId: user.id,
    subtotalCents: 0,
    itemCount: 0,
    currency: DEFAULT_CURRENCY,
    createdAt: user.createdAt,
    updatedAt: user.createdAt,
  };
}
