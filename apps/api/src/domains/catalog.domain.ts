import type { Domain } from './domain';

export const domain: Domain = {
  name: 'catalog',
  description: 'Products, their prices and stock, and their revisions.',
  folders: ['modules/products'],
  dependsOn: [],
  publicApi: ['modules/products/product.entity.ts', 'modules/products/currencies.ts'],
};
