import type { INestApplicationContext } from '@nestjs/common';
import { ResourceRegistry } from '@app/resource-kit';
import { DataSource } from 'typeorm';
import { Product } from '../modules/products/product.entity';

const DEMO_PRODUCTS = [
  {
    name: 'Cast-iron teapot',
    description: 'Keeps tea hot for an hour.',
    priceCents: 4900,
    stock: 12,
  },
  { name: 'Porcelain cup', description: 'Thin-walled, 200 ml.', priceCents: 1200, stock: 40 },
  {
    name: 'Sencha, 100 g',
    description: 'Steamed green tea from Shizuoka.',
    priceCents: 1650,
    stock: 25,
  },
  { name: 'Bamboo whisk', description: null, priceCents: 2200, stock: 8 },
  { name: 'Tea towel', description: 'Linen.', priceCents: 900, stock: 1 },
];

/**
 * Loads a small demo catalogue when there are no products yet, through the products
 * resource itself (so each product gets its first revision). Returns how many it created.
 */
export async function seedDemoCatalog(app: INestApplicationContext): Promise<number> {
  if ((await app.get(DataSource).getRepository(Product).count()) > 0) return 0;
  const products = app.get(ResourceRegistry).serviceOf(Product);
  for (const product of DEMO_PRODUCTS) {
    await products.create(new Map(Object.entries({ ...product, currency: 'EUR' })), {});
  }
  return DEMO_PRODUCTS.length;
}
