import { AccountsDomain } from '../../apps/api/src/domains/accounts.module';
import { CatalogDomain } from '../../apps/api/src/domains/catalog.module';
import { OrderingDomain } from '../../apps/api/src/domains/ordering.module';
import { ADMIN_TOKEN, ShopClient } from '../support/shop-client';
import { DomainApp, startDomains } from '../support/domain-app';

// SPEC 1.18: ordering with the domains it depends on (accounts, catalog), without integration.
describe('the ordering domain, with accounts and catalog', () => {
  let domain: DomainApp;
  let shop: ShopClient;

  beforeAll(async () => {
    domain = await startDomains([OrderingDomain, AccountsDomain, CatalogDomain]);
    shop = new ShopClient(domain.http);
  });
  afterAll(() => domain.close());

  it('serves its resources and those of its dependencies, none of integration', async () => {
    expect(await domain.types()).toEqual([
      'cart_items',
      'carts',
      'order_items',
      'orders',
      'product_revisions',
      'products',
      'sessions',
      'users',
    ]);
    await shop.as(ADMIN_TOKEN).get('/events').expect(404);
  });

  it('checks a cart out, and reacts to accounts\u2019 and catalog\u2019s writes', async () => {
    const admin = shop.as(ADMIN_TOKEN);
    const product = (
      await admin.post('/products', { name: 'Teapot', price_cents: 2500, stock: 3 }).expect(201)
    ).body.data;
    const { user, token } = await shop.customer('bob@example.com');
    const customer = shop.as(token);
    const item = (
      await customer
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 2 })
        .expect(201)
    ).body.data;
    const cart = await customer.get(`/carts/${user.id}`).expect(200);
    expect(cart.body.data).toMatchObject({ subtotal_cents: 5000, item_count: 2 });
    await customer.post('/orders', { cart_item_ids: [item.id] }).expect(201);
    const orders = await customer.get(`/users/${user.id}/orders`).expect(200);
    expect(orders.body.data).toHaveLength(1);
    // Ordering's reactions: an ordered product and a customer with orders stay.
    const kept = await admin.delete(`/products/${product.id}`).expect(409);
    expect(kept.body).toEqual({ error: ['products in an order cannot be deleted'] });
    const stays = await admin.delete(`/users/${user.id}`).expect(409);
    expect(stays.body).toEqual({ error: ['users with orders cannot be deleted'] });
  });
});
