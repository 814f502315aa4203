import type { Domain } from './domain';

export const domain: Domain = {
  name: 'ordering',
  description: 'What is in a cart, checkout, and orders with their items.',
  folders: ['modules/cart-items', 'modules/orders', 'modules/order-items'],
  dependsOn: ['accounts', 'catalog'],
  publicApi: ['modules/orders/order.entity.ts'],
};
