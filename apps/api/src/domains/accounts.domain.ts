import type { Domain } from './domain';

// The cart is the account's: one per user, opened with it under its id. Its items and
// checkout are ordering's, which keeps the cart's totals through setCartTotals.
export const domain: Domain = {
  name: 'accounts',
  description: 'Users, their sessions and their carts; passwords and log-in limits.',
  folders: ['modules/users', 'modules/sessions', 'modules/carts', 'accounts'],
  dependsOn: ['catalog'],
  publicApi: [
    'modules/users/user.entity.ts',
    'modules/carts/cart.entity.ts',
    'modules/carts/cart-totals.ts',
  ],
};
