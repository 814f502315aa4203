import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { IdempotencyStore } from '@app/resource-kit/idempotency/idempotency.store';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.11: Idempotency-Key on POST, ETag with If-None-Match and If-Match.
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
type Row = Record<string, unknown> & { id: string };

describe('safe retries and concurrent edits', () => {
  let service: TestApp;
  let shop: ShopClient;
  const admin = () => shop.as(ADMIN_TOKEN);
  const newKey = () => `key-${randomUUID()}`;

  const createProduct = async (data: Record<string, unknown> = {}) => {
    const body = { name: `Teapot ${randomUUID()}`, price_cents: 1250, stock: 10, ...data };
    return (await admin().post('/products', body).expect(201)).body.data as Row;
  };
  const productsNamed = async (name: string, http: App = service.http) =>
    (
      await request(http)
        .get(`/products?filter[name]=${encodeURIComponent(name)}`)
        .expect(200)
    ).body.data as Row[];
  const checkoutFixture = async (quantity = 2) => {
    const { user, token } = await shop.customer(unique('ann'));
    const product = await createProduct({ stock: 5 });
    const item = (
      await shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity })
        .expect(201)
    ).body.data as Row;
    return { user, token, product, item };
  };
  const stockOf = async (id: string) =>
    ((await request(service.http).get(`/products/${id}`).expect(200)).body.data as Row).stock;

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
  });
  afterAll(() => service.close());

  describe('Idempotency-Key on POST', () => {
    it('replays a checkout: the stock is taken once and the same order answers', async () => {
      const { token, product, item } = await checkoutFixture();
      const key = newKey();
      const checkout = () =>
        shop
          .as(token)
          .post('/orders', { cart_item_ids: [item.id] })
          .set('Idempotency-Key', key);
      const first = await checkout().expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await checkout().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(await stockOf(product.id)).toBe(3);
      const orders = (await shop.as(token).get('/orders').expect(200)).body.data as Row[];
      expect(orders.map((order) => order.id)).toEqual([first.body.data.id]);
    });

    it('answers 422 for the same key with another body or path, and changes nothing', async () => {
      const key = newKey();
      const product = (
        await admin()
          .post('/products', { name: `Kettle ${key}`, price_cents: 900, stock: 1 })
          .set('Idempotency-Key', key)
          .expect(201)
      ).body.data as Row;
      const otherBody = await admin()
        .post('/products', { name: `Kettle ${key}`, price_cents: 901, stock: 1 })
        .set('Idempotency-Key', key)
        .expect(422);
      expect(otherBody.body).toEqual({
        error: [
          'this Idempotency-Key was used for another request (POST /products with another body); use a new key',
        ],
      });
      const { user } = await shop.customer(unique('kim'));
      await admin()
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 1 })
        .set('Idempotency-Key', key)
        .expect(422);
      expect(await productsNamed(`Kettle ${key}`)).toHaveLength(1);
      expect((await admin().get(`/carts/${user.id}`).expect(200)).body.data.item_count).toBe(0);
    });

    it('stores no 400: the corrected request under the same key runs', async () => {
      const key = newKey();
      const name = `Pot ${key}`;
      await admin()
        .post('/products', { name, price_cents: -1, stock: 1 })
        .set('Idempotency-Key', key)
        .expect(400);
      const created = await admin()
        .post('/products', { name, price_cents: 100, stock: 1 })
        .set('Idempotency-Key', key)
        .expect(201);
      const replayed = await admin()
        .post('/products', { name, price_cents: 100, stock: 1 })
        .set('Idempotency-Key', key)
        .expect(201);
      expect(replayed.body).toEqual(created.body);
      expect(await productsNamed(name)).toHaveLength(1);
    });

    it('stores a conflict of the domain and replays it', async () => {
      const { user, token } = await shop.customer(unique('lee'));
      const product = await createProduct({ stock: 1 });
      const key = newKey();
      const add = () =>
        shop
          .as(token)
          .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 2 })
          .set('Idempotency-Key', key);
      const first = await add().expect(409);
      await admin().patch(`/products/${product.id}`, { stock: 10 }).expect(200);
      const again = await add().expect(409);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await shop.as(token).get(`/carts/${user.id}`).expect(200)).body.data.item_count).toBe(
        0,
      );
    });

    it("never gives one caller's answer to another caller with the same key and body", async () => {
      const email = unique('max');
      await shop.signUp(email);
      const key = newKey();
      const body = { data: { email, password: 'correct horse battery' } };
      const logIn = (token?: string) => {
        const call = request(service.http).post('/sessions').set('Idempotency-Key', key);
        return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body);
      };
      const anonymous = await logIn().expect(201);
      expect((await logIn().expect(201)).body).toEqual(anonymous.body);
      const other = await shop.customer(unique('eve'));
      const signedIn = await logIn(other.token).expect(201);
      expect(signedIn.headers['idempotent-replayed']).toBeUndefined();
      expect(signedIn.body.data.id).not.toBe(anonymous.body.data.id);
      expect(signedIn.body.data.token).not.toBe(anonymous.body.data.token);
    });

    it("keeps a session's stored answer no longer than its token", async () => {
      const email = unique('ivy');
      await shop.signUp(email);
      const key = newKey();
      const logIn = () =>
        request(service.http)
          .post('/sessions')
          .set('Idempotency-Key', key)
          .send({ data: { email, password: 'correct horse battery' } });
      const session = (await logIn().expect(201)).body.data as Row & { token: string };
      const stored = await service.app
        .get(DataSource)
        .createQueryBuilder()
        .select('expires_at', 'expiresAt')
        .from('idempotency_keys', 'k')
        .where('k.resource_id = :id', { id: session.id })
        .getRawOne<{ expiresAt: Date | string }>();
      // The key's own lifetime (24 h) is the token's, and it was claimed a moment before the
      // session began: the stored answer ends with the token or, across a second's boundary,
      // up to a second before it, never after.
      const tokenEnds = new Date(session.expires_at as string).getTime();
      expect(timeOf(stored!.expiresAt)).toBeLessThanOrEqual(tokenEnds);
      expect(timeOf(stored!.expiresAt)).toBeGreaterThanOrEqual(tokenEnds - 1000);
      // Logging out deletes the stored answer with the session: a retry logs in afresh.
      await shop.as(session.token).delete(`/sessions/${session.id}`).expect(200);
      const again = await logIn().expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.data.id).not.toBe(session.id);
    });

    it('refuses a malformed key with 400 and ignores the header on other verbs', async () => {
      for (const key of ['', 'x'.repeat(256), 'caf\u00e9']) {
        const { body } = await admin()
          .post('/products', { name: 'Bad key', price_cents: 1, stock: 1 })
          .set('Idempotency-Key', key)
          .expect(400);
        expect(body).toEqual({
          error: ['Idempotency-Key must be 1 to 255 printable ASCII characters'],
        });
      }
      const product = await createProduct();
      await admin()
        .patch(`/products/${product.id}`, { stock: 2 })
        .set('Idempotency-Key', '')
        .expect(200);
    });

    it('lets six concurrent duplicates create one row', async () => {
      const key = newKey();
      const name = `Six ${key}`;
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          admin()
            .post('/products', { name, price_cents: 100, stock: 1 })
            .set('Idempotency-Key', key),
        ),
      );
      expectOneCreation(responses);
      expect(await productsNamed(name)).toHaveLength(1);
    });
  });

  describe('ETag and conditional requests', () => {
    it('tags every single resource, and the tag follows calculated attributes', async () => {
      const { user, token, item } = await checkoutFixture(1);
      const cart = await shop.as(token).get(`/carts/${user.id}`).expect(200);
      expect(cart.headers.etag).toMatch(/^"[\w-]{43}"$/);
      const related = await shop.as(token).get(`/cart_items/${item.id}/cart`).expect(200);
      expect(related.headers.etag).toBe(cart.headers.etag);
      await shop.as(token).patch(`/cart_items/${item.id}`, { quantity: 3 }).expect(200);
      const changed = await shop.as(token).get(`/carts/${user.id}`).expect(200);
      expect(changed.body.data.item_count).toBe(3);
      expect(changed.headers.etag).not.toBe(cart.headers.etag);
      const list = await shop.as(token).get('/cart_items').expect(200);
      expect(list.headers.etag).toBeUndefined();
    });

    it('answers a GET whose If-None-Match names the current tag with 304 and no body', async () => {
      const created = await admin()
        .post('/products', { name: 'Cup', price_cents: 100, stock: 1 })
        .expect(201);
      const path = `/products/${created.body.data.id}`;
      // ETags are of the caller's view (SPEC 1.16): the creator's, an administrator's.
      const read = await admin().get(path).expect(200);
      expect(read.headers.etag).toMatch(/^"[\w-]{43}"$/);
      expect(read.headers.etag).toBe(created.headers.etag);
      const notModified = await admin()
        .get(path)
        .set('If-None-Match', `"other", ${read.headers.etag}`)
        .expect(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.etag).toBe(read.headers.etag);
      await admin().get(path).set('If-None-Match', '"other"').expect(200);
    });

    it('refuses PATCH and DELETE with a stale If-Match (412) and changes nothing', async () => {
      const product = await createProduct({ stock: 4 });
      const path = `/products/${product.id}`;
      const stale = (await admin().get(path)).headers.etag;
      const updated = await admin().patch(path, { stock: 5 }).set('If-Match', stale).expect(200);
      for (const call of [admin().patch(path, { stock: 6 }), admin().delete(path)]) {
        const { body } = await call.set('If-Match', stale).expect(412);
        expect(body.error).toEqual([
          `If-Match does not name the current ETag of products ${product.id} in the view of an administrator (${updated.headers.etag}): read it again as the same caller`,
        ]);
      }
      expect(await stockOf(product.id)).toBe(5);
      await admin().delete(path).set('If-Match', updated.headers.etag).expect(200);
      await admin().delete(path).set('If-Match', '*').expect(404);
    });

    it('lets one of four concurrent PATCHes of one version win; the others get 412', async () => {
      const product = await createProduct({ stock: 1 });
      const path = `/products/${product.id}`;
      const tag = (await admin().get(path)).headers.etag;
      const responses = await Promise.all(
        [10, 20, 30, 40].map((stock) => admin().patch(path, { stock }).set('If-Match', tag)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 412, 412, 412]);
      const winner = responses.find((response) => response.status === 200)!;
      expect(await stockOf(product.id)).toBe(winner.body.data.stock);
      const revisions = await request(service.http).get(`${path}/revisions`).expect(200);
      expect(revisions.body.data).toHaveLength(2);
    });
  });

  // Two processes on one SQLite file take turns at the file lock; the engine of several is PostgreSQL.
  const onPostgres = process.env.TEST_DATABASE === 'postgres';
  (onPostgres ? describe : describe.skip)('on two instances of one database', () => {
    let second: TestApp;

    beforeAll(async () => {
      second = await startTestApp({}, { database: service.database });
    });
    afterAll(() => second.close());

    it('six concurrent duplicates still create one row', async () => {
      const key = newKey();
      const name = `Twice ${key}`;
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          request(index % 2 === 0 ? service.http : second.http)
            .post('/products')
            .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
            .set('Idempotency-Key', key)
            .send({ data: { name, price_cents: 100, stock: 1 } }),
        ),
      );
      expectOneCreation(responses);
      expect(await productsNamed(name, second.http)).toHaveLength(1);
    });
  });

  // Last: the app it starts takes over the process-wide passport strategies, so the JWTs
  // of the main app would be checked against its database.
  describe('with keys kept one second', () => {
    it('forgets a key when it expires, and deletes expired keys', async () => {
      const shortLived = await startTestApp({ IDEMPOTENCY_KEY_TTL_SECONDS: '1' });
      // Named with its schema: through a transaction pooler there is no search_path.
      const schema = shortLived.database.env.DATABASE_SCHEMA;
      const table = schema ? `"${schema}".idempotency_keys` : 'idempotency_keys';
      const keys = () =>
        shortLived.app.get(DataSource).query<unknown[]>(`SELECT key FROM ${table}`);
      try {
        const key = newKey();
        const post = (price_cents: number) =>
          request(shortLived.http)
            .post('/products')
            .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
            .set('Idempotency-Key', key)
            .send({ data: { name: `Short ${key}`, price_cents, stock: 1 } });
        await post(100).expect(201);
        await post(200).expect(422);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const again = await post(200).expect(201);
        expect(again.headers['idempotent-replayed']).toBeUndefined();
        expect(await productsNamed(`Short ${key}`, shortLived.http)).toHaveLength(2);
        expect(await keys()).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        await shortLived.app.get(IdempotencyStore).sweep();
        expect(await keys()).toEqual([]);
      } finally {
        await shortLived.close();
      }
    });
  });
});

// One product created: every answer is that 201 (first or replayed) or 409 (key in use).
function expectOneCreation(responses: request.Response[]): void {
  const created = responses.filter((response) => response.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((response) => (response.body.data as Row).id)).size).toBe(1);
  for (const response of responses.filter((r) => r.status !== 201)) {
    expect(response.status).toBe(409);
    expect(response.body.error[0]).toContain('Idempotency-Key is still being processed');
    expect(response.headers['retry-after']).toBe('1');
  }
}

// Drivers give a Date (PostgreSQL) or zone-less UTC text (SQLite); seconds are what the wire shows.
function timeOf(value: Date | string): number {
  const time = value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
  return Math.floor(time.getTime() / 1000) * 1000;
}
