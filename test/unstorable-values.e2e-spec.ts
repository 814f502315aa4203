import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// Text the database cannot hold (PostgreSQL refuses U+0000; lone surrogates are not Unicode;
// ids longer than the id column) never reaches SQL: an id is unknown, a value is bad input.
describe('values the store cannot hold', () => {
  let service: TestApp;
  let shop: ShopClient;
  let customer: { token: string; cartId: string };
  let productId: string;
  const admin = () => shop.as(ADMIN_TOKEN);

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
    const { token, user } = await shop.customer(`odd-${randomUUID().slice(0, 8)}@example.com`);
    customer = { token, cartId: user.id };
    const product = await admin()
      .post('/products', { name: 'Kettle', price_cents: 100, stock: 5 })
      .expect(201);
    productId = product.body.data.id as string;
  });
  afterAll(() => service.close());

  const unstorableIds = ['%00', '1%00', '%00'.repeat(36), 'a'.repeat(37)];

  it.each(unstorableIds)('an id %s is unknown on every path shape (404)', async (id) => {
    const asCustomer = shop.as(customer.token);
    const answers = await Promise.all([
      request(service.http).get(`/products/${id}`),
      request(service.http).get(`/products/${id}/revisions`),
      asCustomer.get(`/carts/${id}`),
      asCustomer.get(`/carts/${id}/cart_items`),
      asCustomer.get(`/carts/${id}/user`),
      admin().patch(`/products/${id}`, { stock: 1 }),
      admin().delete(`/products/${id}`),
      asCustomer.delete(`/sessions/${id}`),
    ]);
    for (const answer of answers) {
      expect([answer.status, answer.headers['content-type']]).toEqual([
        404,
        expect.stringMatching(/^application\/json/),
      ]);
      expect(answer.body).toEqual({ error: [expect.any(String)] });
    }
  });

  // A lone surrogate cannot even be percent-encoded as UTF-8: such a path is malformed.
  it.each(['%ED%A0%80', 'x%F0%9F', '%'])('an id %s that is not UTF-8 is 400', async (id) => {
    for (const answer of [
      await request(service.http).get(`/products/${id}`),
      await admin().delete(`/products/${id}`),
    ]) {
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: [`Failed to decode param '${id}'`] },
      ]);
    }
  });

  it('a filter value with U+0000 is 400 naming the parameter, whatever the operator', async () => {
    for (const query of [
      'filter[name]=a%00b',
      'filter[name][contains]=a%00b',
      'filter[name][in]=a,b%00',
      'filter[id]=1%00',
      'filter[id][in]=1,%00',
    ]) {
      const { status, body } = await request(service.http).get(`/products?${query}`);
      expect([query, status]).toEqual([query, 400]);
      expect(body.error).toEqual([
        expect.stringContaining(decodeURIComponent(query.split('=')[0])),
      ]);
    }
    const single = await request(service.http).get(
      `/products/${productId}?filter[name][contains]=%00`,
    );
    expect(single.status).toBe(400);
  });

  // The input schema refuses them (their pattern), before any lookup of the rows they name.
  it('a reference the store cannot hold is 400 naming the member', async () => {
    const asCustomer = shop.as(customer.token);
    const item = await asCustomer
      .post('/cart_items', {
        cart_id: `${customer.cartId}\u0000`,
        product_id: productId,
        quantity: 1,
      })
      .expect(400);
    expect(item.body.error).toEqual(['data.cart_id must not contain U+0000']);
    const order = await asCustomer.post('/orders', { cart_item_ids: ['1\u0000'] }).expect(400);
    expect(order.body.error).toEqual(['data.cart_item_ids must hold only id strings']);
  });

  it('text with a lone surrogate is 400, not silently stored as U+FFFD', async () => {
    const { body } = await admin()
      .post('/products', { name: 'Mug \ud800', price_cents: 1, stock: 1 })
      .expect(400);
    expect(body.error).toEqual(['data.name must be well-formed Unicode text']);
    const login = await request(service.http)
      .post('/sessions')
      .send({ data: { email: 'a\u0000@example.com', password: 'long enough' } })
      .expect(400);
    expect(login.body.error).toEqual(['data.email must not contain U+0000']);
  });

  // Found by the fuzz spec: PostgreSQL has no year 0 and 32-bit integer columns.
  it('a date in year 0 is 400 in a body and in a filter', async () => {
    const { body } = await request(service.http)
      .post('/users')
      .send({
        data: {
          email: `zero-${randomUUID().slice(0, 8)}@example.com`,
          name: 'Zero',
          password: 'long enough',
          birth_date: '0000-01-01',
        },
      })
      .expect(400);
    expect(body.error).toEqual(['data.birth_date must be a date in the form YYYY-MM-DD']);
    const filter = await admin().get('/users?filter[birth_date]=0000-01-01').expect(400);
    expect(filter.body.error).toEqual(['filter[birth_date] must be a date (YYYY-MM-DD)']);
    await admin().get('/products?filter[created_at][lt]=0000-01-01T00:00:00Z').expect(400);
  });

  it('an integer filter value outside 32 bits is 400', async () => {
    for (const query of [
      'filter[price_cents]=2147483648',
      'filter[stock][gt]=-2147483649',
      'filter[price_cents][in]=1,2147483648',
    ]) {
      const { status, body } = await request(service.http).get(`/products?${query}`);
      expect([query, status, body.error]).toEqual([
        query,
        400,
        [expect.stringContaining(decodeURIComponent(query.split('=')[0]))],
      ]);
    }
    await request(service.http).get('/products?filter[price_cents]=2147483647').expect(200);
  });
});
