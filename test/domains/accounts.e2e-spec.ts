import request from 'supertest';
import { AccountsDomain } from '../../apps/api/src/domains/accounts.module';
import { CatalogDomain } from '../../apps/api/src/domains/catalog.module';
import { ShopClient } from '../support/shop-client';
import { DomainApp, startDomains } from '../support/domain-app';

// SPEC 1.18: accounts with the one domain it depends on (catalog), without ordering.
describe('the accounts domain, with catalog only', () => {
  let domain: DomainApp;
  let shop: ShopClient;

  beforeAll(async () => {
    domain = await startDomains([AccountsDomain, CatalogDomain]);
    shop = new ShopClient(domain.http);
  });
  afterAll(() => domain.close());

  it('serves its resources and those of catalog, none of ordering or integration', async () => {
    expect(await domain.types()).toEqual([
      'carts',
      'product_revisions',
      'products',
      'sessions',
      'users',
    ]);
    await request(domain.http).get('/orders').expect(404);
  });

  it('signs up with a cart and logs in; the relationships ordering declares are absent', async () => {
    const { user, token } = await shop.customer('ann@example.com');
    const account = await shop.as(token).get(`/users/${user.id}`).expect(200);
    const cart = await shop.as(token).get(`/carts/${account.body.data.cart_id}`).expect(200);
    expect(cart.body.data).toMatchObject({ user_id: user.id, subtotal_cents: 0, item_count: 0 });
    // Declared by ordering on its own resources (Order.userId, CartItem.cartId).
    await shop.as(token).get(`/users/${user.id}/orders`).expect(404);
    await shop.as(token).get(`/carts/${user.id}/cart_items`).expect(404);
  });
});
