import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
type Row = Record<string, unknown> & { id: string };

describe('the shop', () => {
  let service: TestApp;
  let shop: ShopClient;
  const admin = () => shop.as(ADMIN_TOKEN);

  const createProduct = async (data: Record<string, unknown> = {}) => {
    const body = { name: 'Teapot', price_cents: 1250, stock: 10, ...data };
    return (await admin().post('/products', body).expect(201)).body.data as Row;
  };
  const stockOf = async (id: string) =>
    ((await request(service.http).get(`/products/${id}`).expect(200)).body.data as Row).stock;
  const cartOf = async (token: string, userId: string) =>
    (await shop.as(token).get(`/carts/${userId}`).expect(200)).body.data as Row;

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
  });
  afterAll(() => service.close());

  describe('products and revisions', () => {
    it('are public to read and admin-only to write', async () => {
      const product = await createProduct({ description: 'Blue' });
      expect(product).toMatchObject({
        type: 'products',
        name: 'Teapot',
        currency: 'EUR',
        description: 'Blue',
      });
      await request(service.http).get(`/products/${product.id}`).expect(200);
      const { token } = await shop.customer(unique('pat'));
      await shop.as(token).post('/products', { name: 'x', price_cents: 1, stock: 1 }).expect(403);
      await shop.as(token).patch(`/products/${product.id}`, { stock: 1 }).expect(403);
      await request(service.http)
        .post('/products')
        .send({ data: { name: 'x', price_cents: 1, stock: 1 } })
        .expect(401);
    });

    it('write one revision per create and update, with the attributes as they were', async () => {
      const product = await createProduct({ name: 'Mug', price_cents: 500 });
      await admin().patch(`/products/${product.id}`, { price_cents: 650 }).expect(200);
      const { body } = await request(service.http)
        .get(`/products/${product.id}/revisions`)
        .expect(200);
      expect((body.data as Row[]).map((r) => [r.revision, r.price_cents, r.name])).toEqual([
        [1, 500, 'Mug'],
        [2, 650, 'Mug'],
      ]);
      expect(body.data[0]).toMatchObject({
        type: 'product_revisions',
        product_id: product.id,
        stock: 10,
        currency: 'EUR',
      });
      await request(service.http).get(`/product_revisions/${body.data[0].id}/product`).expect(200);
      for (const method of ['post', 'patch', 'delete'] as const) {
        const path =
          method === 'post' ? '/product_revisions' : `/product_revisions/${body.data[0].id}`;
        await admin()[method](path, {}).expect(405);
      }
    });

    it('rejects bad products together', async () => {
      const { body } = await admin()
        .post('/products', { name: '', price_cents: -1, currency: 'XXX', stock: '3' })
        .expect(400);
      expect(body.error).toEqual([
        'data.name must be at least 1 characters',
        'data.price_cents must be at least 0',
        'data.currency must be one of: EUR, USD, GBP, CHF, SEK, NOK, DKK, PLN, CZK, JPY, CAD, AUD',
        'data.stock must be an integer',
      ]);
    });
  });

  describe('carts and cart items', () => {
    it('every user has a cart under their own id; it is theirs alone', async () => {
      const ann = await shop.customer(unique('ann'));
      const bob = await shop.customer(unique('bob'));
      expect(await cartOf(ann.token, ann.user.id)).toMatchObject({
        user_id: ann.user.id,
        subtotal_cents: 0,
        item_count: 0,
        currency: 'EUR',
      });
      const viaUser = await shop.as(ann.token).get(`/users/${ann.user.id}/cart`).expect(200);
      expect(viaUser.body.data.id).toBe(ann.user.id);
      await shop.as(bob.token).get(`/carts/${ann.user.id}`).expect(404);
      await shop.as(ann.token).post('/carts', {}).expect(405);
      await shop.as(ann.token).delete(`/carts/${ann.user.id}`).expect(405);
    });

    it('items are priced from their product and keep the cart totals', async () => {
      const { user, token } = await shop.customer(unique('cid'));
      const teapot = await createProduct({ price_cents: 1000 });
      const cup = await createProduct({ name: 'Cup', price_cents: 250 });
      const line = (
        await shop
          .as(token)
          .post('/cart_items', { cart_id: user.id, product_id: teapot.id, quantity: 2 })
          .expect(201)
      ).body.data;
      expect(line).toMatchObject({ unit_price_cents: 1000, line_total_cents: 2000, quantity: 2 });
      const cupLine = (
        await shop
          .as(token)
          .post('/cart_items', { cart_id: user.id, product_id: cup.id, quantity: 3 })
          .expect(201)
      ).body.data;
      expect(await cartOf(token, user.id)).toMatchObject({ subtotal_cents: 2750, item_count: 5 });
      await shop.as(token).patch(`/cart_items/${line.id}`, { quantity: 1 }).expect(200);
      expect(await cartOf(token, user.id)).toMatchObject({ subtotal_cents: 1750, item_count: 4 });
      await shop.as(token).delete(`/cart_items/${cupLine.id}`).expect(200);
      expect(await cartOf(token, user.id)).toMatchObject({ subtotal_cents: 1000, item_count: 1 });
      const items = (await shop.as(token).get(`/carts/${user.id}/cart_items`).expect(200)).body
        .data;
      expect((items as Row[]).map((i) => i.id)).toEqual([line.id]);
    });

    it("refuses the same product twice (409), more than the stock (409), another user's cart (400)", async () => {
      const { user, token } = await shop.customer(unique('dee'));
      const other = await shop.customer(unique('eli'));
      const product = await createProduct({ stock: 2 });
      await shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 1 })
        .expect(201);
      await shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 1 })
        .expect(409);
      const scarce = await createProduct({ stock: 2 });
      const tooMany = await shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: scarce.id, quantity: 3 })
        .expect(409);
      expect(tooMany.body).toEqual({ error: ['only 2 of this product are in stock'] });
      const foreign = await shop
        .as(token)
        .post('/cart_items', { cart_id: other.user.id, product_id: scarce.id, quantity: 1 })
        .expect(400);
      expect(foreign.body).toEqual({ error: ['data.cart_id refers to no carts resource'] });
      await shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: scarce.id, quantity: 100 })
        .expect(400);
    });

    it('deleting a product takes it out of carts, and their totals follow', async () => {
      const { user, token } = await shop.customer(unique('gil'));
      const doomed = await createProduct({ price_cents: 700 });
      const kept = await createProduct({ price_cents: 300 });
      for (const product of [doomed, kept]) {
        await shop
          .as(token)
          .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 1 })
          .expect(201);
      }
      await admin().delete(`/products/${doomed.id}`).expect(200);
      expect(await cartOf(token, user.id)).toMatchObject({ subtotal_cents: 300, item_count: 1 });
    });

    it('twenty concurrent item writes leave the totals equal to the sum of the items', async () => {
      const { user, token } = await shop.customer(unique('fin'));
      const products = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          createProduct({ name: `P${i}`, price_cents: 100 + i, stock: 50 }),
        ),
      );
      const created = await Promise.all(
        products.map((p, i) =>
          shop
            .as(token)
            .post('/cart_items', { cart_id: user.id, product_id: p.id, quantity: i + 1 }),
        ),
      );
      expect(created.map((r) => r.status)).toEqual(Array(10).fill(201));
      const changes = created.map((r, i) =>
        shop.as(token).patch(`/cart_items/${r.body.data.id}`, { quantity: 10 - i }),
      );
      expect((await Promise.all(changes)).map((r) => r.status)).toEqual(Array(10).fill(200));
      const items = (await shop.as(token).get(`/carts/${user.id}/cart_items?limit=100`).expect(200))
        .body.data as Row[];
      const cart = await cartOf(token, user.id);
      expect(cart.subtotal_cents).toBe(
        items.reduce((sum, item) => sum + (item.line_total_cents as number), 0),
      );
      expect(cart.item_count).toBe(items.reduce((sum, item) => sum + (item.quantity as number), 0));
      expect(cart.item_count).toBe(55);
    });
  });

  describe('orders', () => {
    const placeOrder = async (token: string, itemId: string) =>
      (
        await shop
          .as(token)
          .post('/orders', { cart_item_ids: [itemId] })
          .expect(201)
      ).body.data as Row;
    const checkout = async (stock = 5, quantity = 2) => {
      const customer = await shop.customer(unique('ola'));
      const product = await createProduct({ name: 'Kettle', price_cents: 3000, stock });
      const item = (
        await shop
          .as(customer.token)
          .post('/cart_items', { cart_id: customer.user.id, product_id: product.id, quantity })
          .expect(201)
      ).body.data;
      return { ...customer, product, item };
    };

    it("checkout takes the stock, writes order items at today's price, empties the checked-out items", async () => {
      const { token, user, product, item } = await checkout();
      const { body } = await shop
        .as(token)
        .post('/orders', { cart_item_ids: [item.id] })
        .expect(201);
      expect(body.data).toEqual({
        type: 'orders',
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        status: 'placed',
        total_cents: 6000,
        item_count: 2,
        currency: 'EUR',
        requested_delivery_date: null,
        user_id: user.id,
      });
      expect(await stockOf(product.id)).toBe(3);
      await admin()
        .patch(`/products/${product.id}`, { name: 'Renamed', price_cents: 1 })
        .expect(200);
      const lines = (await shop.as(token).get(`/orders/${body.data.id}/order_items`).expect(200))
        .body.data;
      expect(lines).toEqual([
        expect.objectContaining({
          name: 'Kettle',
          quantity: 2,
          unit_price_cents: 3000,
          line_total_cents: 6000,
          product_id: product.id,
        }),
      ]);
      await shop.as(token).get(`/cart_items/${item.id}`).expect(404);
      expect(await cartOf(token, user.id)).toMatchObject({ subtotal_cents: 0, item_count: 0 });
      const revisions = (await request(service.http).get(`/products/${product.id}/revisions`)).body
        .data;
      expect(revisions).toHaveLength(2); // create and the admin's update; the checkout wrote none
    });

    it('a shortage is 409 and changes nothing', async () => {
      const { token, product, item } = await checkout(5, 4);
      await admin().patch(`/products/${product.id}`, { stock: 3 }).expect(200);
      await shop
        .as(token)
        .post('/orders', { cart_item_ids: [item.id] })
        .expect(409);
      expect(await stockOf(product.id)).toBe(3);
      await shop.as(token).get(`/cart_items/${item.id}`).expect(200);
      expect((await shop.as(token).get('/orders').expect(200)).body.data).toEqual([]);
    });

    it("refuses another user's cart items, unknown ids and past delivery dates (400)", async () => {
      const { item } = await checkout();
      const stranger = await shop.customer(unique('sam'));
      const foreign = await shop
        .as(stranger.token)
        .post('/orders', { cart_item_ids: [item.id] })
        .expect(400);
      expect(foreign.body.error).toEqual([
        `data.cart_item_ids refers to no cart_items resource (${item.id})`,
      ]);
      await shop.as(stranger.token).post('/orders', { cart_item_ids: [] }).expect(400);
      await shop.as(stranger.token).post('/orders', { cart_item_ids: 'x' }).expect(400);
      const mine = await checkout();
      const past = await shop
        .as(mine.token)
        .post('/orders', { cart_item_ids: [mine.item.id], requested_delivery_date: '2000-01-01' })
        .expect(400);
      expect(past.body.error[0]).toMatch(/^data.requested_delivery_date must not be before today/);
    });

    it('two concurrent checkouts of the last unit: one 201, one 409, stock 0', async () => {
      const product = await createProduct({ stock: 1 });
      const buyers = await Promise.all([shop.customer(unique('r1')), shop.customer(unique('r2'))]);
      const items = await Promise.all(
        buyers.map(
          async (b) =>
            (
              await shop
                .as(b.token)
                .post('/cart_items', { cart_id: b.user.id, product_id: product.id, quantity: 1 })
                .expect(201)
            ).body.data as Row,
        ),
      );
      const results = await Promise.all(
        buyers.map((b, i) => shop.as(b.token).post('/orders', { cart_item_ids: [items[i].id] })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(await stockOf(product.id)).toBe(0);
    });

    it('moves through its states: customers cancel, admins do the rest; cancelling restocks', async () => {
      const { token, product, item } = await checkout(5, 2);
      const order = await placeOrder(token, item.id);
      const pay = await shop.as(token).patch(`/orders/${order.id}`, { status: 'paid' }).expect(403);
      expect(pay.body).toEqual({ error: ['your role may not move orders from placed to paid'] });
      await admin().patch(`/orders/${order.id}`, { status: 'paid' }).expect(200);
      const back = await admin().patch(`/orders/${order.id}`, { status: 'placed' }).expect(409);
      expect(back.body).toEqual({
        error: [
          'orders cannot go from paid to placed; from paid it may become shipped or cancelled',
        ],
      });
      const { body } = await shop
        .as(token)
        .patch(`/orders/${order.id}`, { status: 'cancelled' })
        .expect(200);
      expect(body.data.status).toBe('cancelled');
      expect(await stockOf(product.id)).toBe(5);
      await admin().patch(`/orders/${order.id}`, { status: 'paid' }).expect(409);
      await shop.as(token).patch(`/orders/${order.id}`, { total_cents: 1 }).expect(400);
      await shop.as(token).delete(`/orders/${order.id}`).expect(405);
    });

    it('shipped orders are delivered by admins; delivered is final', async () => {
      const { token, item } = await checkout();
      const order = await placeOrder(token, item.id);
      for (const status of ['paid', 'shipped', 'delivered'])
        await admin().patch(`/orders/${order.id}`, { status }).expect(200);
      await shop.as(token).patch(`/orders/${order.id}`, { status: 'cancelled' }).expect(409);
    });

    it('order items are read-only and private', async () => {
      const { token, item } = await checkout();
      const order = await placeOrder(token, item.id);
      const line = (await shop.as(token).get(`/orders/${order.id}/order_items`).expect(200)).body
        .data[0];
      const stranger = await shop.customer(unique('tom'));
      await shop.as(stranger.token).get(`/order_items/${line.id}`).expect(404);
      await shop.as(stranger.token).get(`/orders/${order.id}`).expect(404);
      expect((await shop.as(stranger.token).get('/order_items').expect(200)).body.data).toEqual([]);
      await shop.as(token).post('/order_items', {}).expect(405);
      await admin().get(`/order_items/${line.id}`).expect(200);
    });

    it('products in an order cannot be deleted (409); users with orders neither', async () => {
      const { token, user, product, item } = await checkout();
      await shop
        .as(token)
        .post('/orders', { cart_item_ids: [item.id] })
        .expect(201);
      const kept = await admin().delete(`/products/${product.id}`).expect(409);
      expect(kept.body).toEqual({ error: ['products in an order cannot be deleted'] });
      const refused = await shop.as(token).delete(`/users/${user.id}`).expect(409);
      expect(refused.body).toEqual({ error: ['users with orders cannot be deleted'] });
      const unused = await createProduct();
      await admin().delete(`/products/${unused.id}`).expect(200);
    });
  });

  describe('verbs a resource does not support', () => {
    it.each([
      ['PATCH', '/sessions/x', 'GET, DELETE'],
      ['POST', '/product_revisions', 'GET'],
      ['PATCH', '/product_revisions/x', 'GET'],
      ['POST', '/carts', 'GET'],
      ['PATCH', '/carts/x', 'GET'],
      ['DELETE', '/carts/x', 'GET'],
      ['DELETE', '/orders/x', 'GET, PATCH'],
      ['POST', '/order_items', 'GET'],
      ['PATCH', '/order_items/x', 'GET'],
      ['DELETE', '/order_items/x', 'GET'],
      ['POST', '/events', 'GET'],
      ['DELETE', '/events/x', 'GET'],
      ['PUT', '/products/x', 'GET, PATCH, DELETE'],
      ['PUT', '/users', 'GET, POST'],
    ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
      const response = await request(service.http)
        [method.toLowerCase() as 'get'](path)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .expect(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.body).toEqual({ error: [expect.stringContaining('is not allowed here')] });
    });
  });

  describe('events', () => {
    it('record each write for the user it acted for; customers see their own, admins all', async () => {
      const email = unique('eva');
      const user = await shop.signUp(email);
      const session = await shop.logIn(email);
      await shop.as(session.token).patch(`/users/${user.id}`, { name: 'Eva' }).expect(200);
      await shop.as(session.token).post('/users', {}).expect(400); // failed writes record nothing
      const { body } = await shop.as(session.token).get('/events').expect(200);
      expect(
        (body.data as Row[]).map((e) => [e.action, (e.subject as Row).type, e.user_id]),
      ).toEqual([
        ['created', 'users', user.id],
        ['created', 'sessions', user.id],
        ['updated', 'users', user.id],
      ]);
      expect(body.data[0]).toEqual({
        type: 'events',
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        action: 'created',
        subject: { type: 'users', id: user.id },
        user_id: user.id,
        occurred_at: expect.any(String),
      });
      const filtered = await shop
        .as(session.token)
        .get(`/events?filter[subject.type]=sessions`)
        .expect(200);
      expect(filtered.body.data).toHaveLength(1);
      const all = await admin().get(`/events?filter[user_id]=${user.id}`).expect(200);
      expect(all.body.data).toHaveLength(3);
      const other = await shop.customer(unique('zed'));
      expect(
        (await shop.as(other.token).get(`/events?filter[user_id]=${user.id}`).expect(200)).body
          .data,
      ).toEqual([]);
      await shop.as(session.token).post('/events', {}).expect(405);
    });
  });
});
