import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

type Row = Record<string, unknown> & { id: string };
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

// SPEC 1.16 in the shop: products.cost_cents and orders.admin_note are read and written by
// administrators only; every other caller's answers leave them out.
describe('members only administrators read and write', () => {
  let service: TestApp;
  let shop: ShopClient;
  const admin = () => shop.as(ADMIN_TOKEN);
  let product: Row;
  let customer: { token: string; user: { id: string } };
  let order: Row;
  // One kettle in the customer's cart, to check out.
  const putInCart = async () =>
    (
      await shop
        .as(customer.token)
        .post('/cart_items', { cart_id: customer.user.id, product_id: product.id, quantity: 1 })
        .expect(201)
    ).body.data as Row;

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
    const body = { name: 'Kettle', price_cents: 2500, stock: 10, cost_cents: 1400 };
    product = (await admin().post('/products', body).expect(201)).body.data as Row;
    customer = await shop.customer(unique('cy'));
    const item = await putInCart();
    order = (
      await shop
        .as(customer.token)
        .post('/orders', { cart_item_ids: [item.id] })
        .expect(201)
    ).body.data as Row;
  });
  afterAll(() => service.close());

  it('shows cost_cents to administrators only: one, lists, relationship paths, revisions', async () => {
    expect(product.cost_cents).toBe(1400);
    const anonymous = (path: string) => request(service.http).get(path).expect(200);
    const asCustomer = (path: string) => shop.as(customer.token).get(path).expect(200);
    const asAdmin = (path: string) => admin().get(path).expect(200);
    const line = (await asCustomer(`/orders/${order.id}/order_items`)).body.data[0] as Row;
    expect((await anonymous(`/products/${product.id}`)).body.data).not.toHaveProperty('cost_cents');
    for (const path of [`/products/${product.id}`, `/order_items/${line.id}/product`]) {
      expect((await asCustomer(path)).body.data).not.toHaveProperty('cost_cents');
      expect((await asAdmin(path)).body.data.cost_cents).toBe(1400);
    }
    const list = `/products?filter[id]=${product.id}`;
    expect((await anonymous(list)).body.data[0]).not.toHaveProperty('cost_cents');
    expect((await asAdmin(list)).body.data[0].cost_cents).toBe(1400);
    const revisions = `/products/${product.id}/revisions`;
    expect((await anonymous(revisions)).body.data[0]).not.toHaveProperty('cost_cents');
    expect((await asAdmin(revisions)).body.data[0].cost_cents).toBe(1400);
  });

  it("never shows a customer their order's admin_note; administrators read and write it", async () => {
    expect(order).not.toHaveProperty('admin_note');
    const noted = await admin()
      .patch(`/orders/${order.id}`, { admin_note: 'Gift wrap' })
      .expect(200);
    expect(noted.body.data.admin_note).toBe('Gift wrap');
    const seen = await shop.as(customer.token).get(`/orders/${order.id}`).expect(200);
    expect(seen.body.data).not.toHaveProperty('admin_note');
    expect((await admin().get(`/orders/${order.id}`).expect(200)).body.data.admin_note).toBe(
      'Gift wrap',
    );
  });

  it('answers a customer who filters, orders or writes by them as for a member that does not exist', async () => {
    const asCustomer = shop.as(customer.token);
    const hidden = await asCustomer
      .get('/products?filter[cost_cents]=1&order=cost_cents')
      .expect(400);
    const missing = await asCustomer
      .get('/products?filter[cost_centz]=1&order=cost_centz')
      .expect(400);
    expect(hidden.body.error).toEqual(
      (missing.body.error as string[]).map((message) =>
        message.replaceAll('cost_centz', 'cost_cents'),
      ),
    );
    const written = await asCustomer.patch(`/orders/${order.id}`, { admin_note: 'x' }).expect(400);
    expect(written.body.error).toEqual(['data.admin_note is not an attribute of orders']);
    await admin().get('/products?filter[cost_cents]=1400&order=cost_cents').expect(200);
  });

  it('gives ETags per view: an administrator\u2019s does not match for a customer', async () => {
    const path = `/products/${product.id}`;
    const adminTag = (await admin().get(path).expect(200)).headers.etag;
    const ownTag = (await request(service.http).get(path).expect(200)).headers.etag;
    expect(ownTag).not.toBe(adminTag);
    await request(service.http).get(path).set('If-None-Match', adminTag).expect(200);
    await request(service.http).get(path).set('If-None-Match', ownTag).expect(304);
  });

  it('marks them in the OpenAPI document, optional in outputs', async () => {
    const { body } = await request(service.http).get('/openapi.json').expect(200);
    const product = body.components.schemas.products as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(product.required).not.toContain('cost_cents');
    expect(product.properties.cost_cents.description).toBe(
      "What a unit costs the shop, in minor units. Read by administrators only: absent from other callers' answers. Written by administrators only.",
    );
    const { parameters } = body.components as Record<
      string,
      Record<string, { description: string }>
    >;
    expect(parameters['products.filter.cost_cents'].description).toMatch(
      / Used by administrators only: for any other caller the member does not exist \(400\)\.$/,
    );
    expect(parameters['products.filter.price_cents'].description).not.toMatch(/Used by/);
    expect(parameters['products.order'].description).toMatch(
      / cost_cents and -cost_cents: by administrators only \(400 for any other caller\)\.$/,
    );
    expect(parameters['order_items.filter.product.cost_cents'].description).toMatch(
      /Used by administrators only/,
    );
  });

  it("replays a customer's create without administrators' members", async () => {
    const item = await putInCart();
    const key = randomUUID();
    const send = () =>
      request(service.http)
        .post('/orders')
        .set('Authorization', `Bearer ${customer.token}`)
        .set('Idempotency-Key', key)
        .send({ data: { cart_item_ids: [item.id] } });
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.body.data).not.toHaveProperty('admin_note');
  });
});
