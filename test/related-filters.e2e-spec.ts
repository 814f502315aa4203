import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

type Row = Record<string, unknown> & { id: string };
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

// SPEC 1.15 in the shop: filters through relationships, and order items owned through their
// order (declared, no scope code).
describe('filters through relationships, and order items owned through their order', () => {
  let service: TestApp;
  let shop: ShopClient;
  const admin = () => shop.as(ADMIN_TOKEN);
  let teapot: Row;
  let mug: Row;
  let ann: { token: string; user: { id: string }; orders: Row[] };
  let bob: { token: string; user: { id: string }; orders: Row[] };

  const product = async (name: string, currency: string) =>
    (await admin().post('/products', { name, price_cents: 900, currency, stock: 100 }).expect(201))
      .body.data as Row;
  const inCart = async (token: string, userId: string, productId: string) =>
    (
      await shop
        .as(token)
        .post('/cart_items', { cart_id: userId, product_id: productId, quantity: 1 })
        .expect(201)
    ).body.data as Row;
  // An order of these products: one line each.
  const order = async (token: string, userId: string, products: Row[]) => {
    const items = [];
    for (const { id } of products) items.push(await inCart(token, userId, id));
    const cart_item_ids = items.map((item) => item.id);
    return (await shop.as(token).post('/orders', { cart_item_ids }).expect(201)).body.data as Row;
  };
  const customer = async (name: string) => ({
    ...(await shop.customer(unique(name))),
    orders: [] as Row[],
  });
  const ids = (rows: Row[]) => rows.map((row) => row.id).sort();
  const list = async (token: string, path: string) =>
    (await shop.as(token).get(path).expect(200)).body as { data: Row[]; cursor: string | null };

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
    teapot = await product('Teapot', 'EUR');
    mug = await product('Mug', 'EUR');
    ann = await customer('ann');
    bob = await customer('bob');
    // Ann: two orders with a teapot, one with a mug; Bob: one with a teapot.
    ann.orders.push(await order(ann.token, ann.user.id, [teapot]));
    ann.orders.push(await order(ann.token, ann.user.id, [mug]));
    ann.orders.push(await order(ann.token, ann.user.id, [teapot]));
    bob.orders.push(await order(bob.token, bob.user.id, [teapot]));
  });
  afterAll(() => service.close());

  it('each customer finds only their own orders containing a product', async () => {
    const path = `/orders?filter[order_items.product_id]=${teapot.id}`;
    expect(ids((await list(ann.token, path)).data)).toEqual(ids([ann.orders[0], ann.orders[2]]));
    expect(ids((await list(bob.token, path)).data)).toEqual([bob.orders[0].id]);
    const all = (await list(ADMIN_TOKEN, path)).data;
    expect(ids(all)).toEqual(ids([ann.orders[0], ann.orders[2], bob.orders[0]]));
  });

  it('lists a parent once whatever the number of matching children, and pages with the cursor', async () => {
    // A fourth order of Ann's with two lines, both matching.
    const cup = await product('Cup', 'EUR');
    ann.orders.push(await order(ann.token, ann.user.id, [teapot, cup]));
    const path = '/orders?filter[order_items.quantity][gte]=1&limit=2';
    const seen: Row[] = [];
    let page = await list(ann.token, path);
    seen.push(...page.data);
    while (page.cursor) {
      expect(page.data).toHaveLength(2);
      page = await list(ann.token, `${path}&cursor=${encodeURIComponent(page.cursor)}`);
      seen.push(...page.data);
    }
    expect(ids(seen)).toEqual(ids(ann.orders));
  });

  it('filters through a to-one: cart items by their product\u2019s currency', async () => {
    // Carts hold euros: a product priced in dollars is never in one.
    await product('Samovar', 'USD');
    const teapotItem = await inCart(ann.token, ann.user.id, teapot.id);
    const mugItem = await inCart(ann.token, ann.user.id, mug.id);
    await inCart(bob.token, bob.user.id, teapot.id);
    const euros = (await list(ann.token, '/cart_items?filter[product.currency]=EUR')).data;
    expect(ids(euros)).toEqual(ids([teapotItem, mugItem]));
    expect((await list(ann.token, '/cart_items?filter[product.currency]=USD')).data).toEqual([]);
    const mugs = (await list(ann.token, `/cart_items?filter[product.name]=Mug`)).data;
    expect(ids(mugs)).toEqual([mugItem.id]);
  });

  it('never matches through rows the caller may not read', async () => {
    // Products with a revision of this name: public revisions, so anyone finds the teapot.
    const byName = `/products?filter[revisions.name]=Teapot&filter[id]=${teapot.id}`;
    expect(ids((await request(service.http).get(byName).expect(200)).body.data)).toEqual([
      teapot.id,
    ]);
    // Bob's order items are Bob's: Ann's filter through them finds none of his orders.
    const bobsLine = (await list(bob.token, `/orders/${bob.orders[0].id}/order_items`)).data[0];
    const path = `/orders?filter[order_items.id]=${bobsLine.id}`;
    expect((await list(ann.token, path)).data).toEqual([]);
    expect(ids((await list(bob.token, path)).data)).toEqual([bob.orders[0].id]);
  });

  it('are 400 naming the parameter: a third hop, an unknown member, write-only, a bad value', async () => {
    const { body } = await shop
      .as(ann.token)
      .get(
        '/orders?filter[order_items.product.revisions.revision]=1' +
          '&filter[order_items.colour]=red&filter[user.password]=x' +
          '&filter[order_items.quantity]=many&filter[shipment.id]=x',
      )
      .expect(400);
    expect(body.error).toEqual([
      'filter[order_items.product.revisions.revision]: a filter goes through at most 2 relationships',
      'filter[order_items.colour]: colour is not an attribute of order_items',
      'filter[user.password]: password is write-only',
      'filter[order_items.quantity] must be an integer',
      'filter[shipment.id]: shipment.id is not an attribute of orders',
    ]);
  });

  describe('order items, owned through their order', () => {
    it('are 404 by id to another customer, and absent from their lists and filters', async () => {
      const line = (await list(ann.token, `/orders/${ann.orders[0].id}/order_items`)).data[0];
      await shop.as(bob.token).get(`/order_items/${line.id}`).expect(404);
      await shop.as(bob.token).get(`/orders/${ann.orders[0].id}/order_items`).expect(404);
      const bobs = (await list(bob.token, '/order_items')).data;
      expect(bobs.every((row) => row.order_id === bob.orders[0].id)).toBe(true);
      expect(bobs.map((row) => row.id)).not.toContain(line.id);
      const filtered = await list(bob.token, `/order_items?filter[order_id]=${ann.orders[0].id}`);
      expect(filtered.data).toEqual([]);
      await shop.as(ann.token).get(`/order_items/${line.id}`).expect(200);
      await admin().get(`/order_items/${line.id}`).expect(200);
    });
  });
});
