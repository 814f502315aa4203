import { randomUUID } from 'node:crypto';
import { createShopClient } from '../clients/typescript';
import { ADMIN_TOKEN } from './support/shop-client';
import { listenOnFreePort, startTestApp, TestApp } from './support/test-app';

// The README's walk-through, through the committed typed client only: every path, parameter
// and body below is checked by the compiler against the generated schema.
describe('the typed TypeScript client', () => {
  let service: TestApp;
  let origin: string;

  beforeAll(async () => {
    service = await startTestApp();
    origin = await listenOnFreePort(service);
  });
  afterAll(() => service.close());

  it("walks a customer's visit: sign up to log out", async () => {
    const anonymous = createShopClient(origin);
    const admin = createShopClient(origin, ADMIN_TOKEN);
    const addProduct = async (name: string, price_cents: number) => {
      const { data, response } = await admin.POST('/products', {
        body: { data: { name, price_cents, stock: 10 } },
      });
      expect(response.status).toBe(201);
      return data!.data.id;
    };
    const teapot = `Teapot ${randomUUID()}`;
    const productId = await addProduct(teapot, 1250);
    const cupId = await addProduct('Cup', 500);

    // Sign up and log in.
    const email = `ann-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'correct horse battery';
    const signUp = await anonymous.POST('/users', {
      body: { data: { email, name: 'Ann', password } },
    });
    expect(signUp.response.status).toBe(201);
    const logIn = await anonymous.POST('/sessions', { body: { data: { email, password } } });
    expect(logIn.response.status).toBe(201);
    const session = logIn.data!.data;
    expect(session.user_id).toBe(signUp.data!.data.id);
    const ann = createShopClient(origin, session.token);

    // Browse: cheapest first, then the teapot by name.
    const cheapest = await anonymous.GET('/products', {
      params: { query: { order: ['price_cents'], limit: 2 } },
    });
    expect(cheapest.data!.data.map((row) => row.id)).toEqual([cupId, productId]);
    const found = await anonymous.GET('/products', {
      params: { query: { 'filter[name]': { eq: teapot } } },
    });
    expect(found.data!.data.map((row) => row.id)).toEqual([productId]);

    // Add to the cart, which has the user's id, and read it.
    const item = await ann.POST('/cart_items', {
      body: { data: { cart_id: session.user_id, product_id: productId, quantity: 2 } },
    });
    expect(item.response.status).toBe(201);
    const cart = await ann.GET('/carts/{id}', { params: { path: { id: session.user_id } } });
    expect(cart.data!.data).toMatchObject({ subtotal_cents: 2500, item_count: 2 });

    // Check out the item: the stock is taken.
    const order = await ann.POST('/orders', {
      body: { data: { cart_item_ids: [item.data!.data.id] } },
    });
    expect(order.response.status).toBe(201);
    const orderId = order.data!.data.id;
    const lines = await ann.GET('/orders/{id}/order_items', {
      params: { path: { id: orderId } },
    });
    expect(lines.data!.data).toMatchObject([{ product_id: productId, quantity: 2 }]);
    expect(await stockOf(productId)).toBe(8);

    // Cancel the order: its stock goes back.
    const cancelled = await ann.PATCH('/orders/{id}', {
      params: { path: { id: orderId } },
      body: { data: { status: 'cancelled' } },
    });
    expect(cancelled.data!.data.status).toBe('cancelled');
    expect(await stockOf(productId)).toBe(10);

    // Log out: the token is refused from the next request on.
    const logOut = await ann.DELETE('/sessions/{id}', { params: { path: { id: session.id } } });
    expect(logOut.response.ok).toBe(true);
    const refused = await ann.GET('/orders');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toEqual({ error: ['the bearer token is invalid or revoked'] });
  });

  async function stockOf(id: string): Promise<number> {
    const { data } = await createShopClient(origin).GET('/products/{id}', {
      params: { path: { id } },
    });
    return data!.data.stock;
  }
});
