import { generateKeyPairSync, randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.12, secrets: where a credential may come from, what caches may keep, and a body no
// request handler should ever overflow on.
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const PRODUCT = { name: 'Lamp', price_cents: 1200, stock: 3 };

describe('credentials and caches', () => {
  let service: TestApp;
  let shop: ShopClient;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
  });
  afterAll(() => service.close());

  it('reads a bearer token from the Authorization header only', async () => {
    const token = encodeURIComponent(ADMIN_TOKEN);
    for (const authorization of [undefined, 'X y', `Basic ${token}`]) {
      const post = http().post(`/products?access_token=${token}`);
      if (authorization) post.set('Authorization', authorization);
      const refused = await post.send({ data: PRODUCT, access_token: ADMIN_TOKEN }).expect(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
    }
    await shop.as(ADMIN_TOKEN).post('/products', PRODUCT).expect(201);
    const listed = await http().get('/products').expect(200);
    expect(listed.body.data).toHaveLength(1);
  });

  it('sends Cache-Control: no-store with a token or a caller\u2019s private data only', async () => {
    const email = unique('cache');
    const signUp = await http()
      .post('/users')
      .send({ data: { email, name: 'C', password: 'correct horse battery' } })
      .expect(201);
    expect(signUp.headers['cache-control']).toBe('no-store');
    const logIn = await http()
      .post('/sessions')
      .send({ data: { email, password: 'correct horse battery' } })
      .expect(201);
    expect(logIn.headers['cache-control']).toBe('no-store');
    const me = shop.as(logIn.body.data.token);
    const userId = logIn.body.data.user_id as string;
    for (const path of [
      `/users/${userId}`,
      `/carts/${userId}`,
      '/orders',
      `/users/${userId}/sessions`,
    ]) {
      expect((await me.get(path).expect(200)).headers['cache-control']).toBe('no-store');
    }
    const catalogue = await http().get('/products').expect(200);
    expect(catalogue.headers['cache-control']).toBeUndefined();
  });

  it('answers a deeply nested body 400, with an Idempotency-Key too, and stores nothing', async () => {
    const depth = 100_000;
    const body = `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    for (const key of [undefined, randomUUID()]) {
      const post = http()
        .post('/products')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('Content-Type', 'application/json');
      if (key) post.set('Idempotency-Key', key);
      const refused = await post.send(body).expect(400);
      expect(refused.body).toEqual({ error: ['data must be an object'] });
    }
    expect((await http().get('/products').expect(200)).body.data).toHaveLength(1);
  });
});

describe('several instances signing with a key pair and no JWT_SECRET', () => {
  it('derive the same cursor keys, so a page from one continues on the other', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const env = {
      JWT_SECRET: '',
      JWT_ALGORITHM: 'ES256',
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    const first = await startTestApp(env);
    const second = await startTestApp(env, { database: first.database });
    try {
      const admin = new ShopClient(first.http).as(ADMIN_TOKEN);
      for (const name of ['a', 'b', 'c']) {
        await admin.post('/products', { ...PRODUCT, name }).expect(201);
      }
      const page = await request(first.http).get('/products?order=name&limit=2').expect(200);
      const next = await request(second.http)
        .get(`/products?order=name&limit=2&cursor=${encodeURIComponent(page.body.cursor)}`)
        .expect(200);
      const names = (next.body.data as { name: string }[]).map((product) => product.name);
      expect(names).toEqual(['c']);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
