import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { decode, sign } from 'jsonwebtoken';
import request from 'supertest';
import { ADMIN_TOKEN, ShopClient, STATIC_ADMIN } from './support/shop-client';
import { startTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

describe('authentication and authorization', () => {
  let service: TestApp;
  let shop: ShopClient;
  const http = () => request(service.http);

  beforeAll(async () => {
    service = await startTestApp();
    shop = new ShopClient(service.http);
  });
  afterAll(() => service.close());

  describe('sign-up (POST /users, public)', () => {
    it('creates a customer; the password is never output', async () => {
      const email = unique('Ann');
      const { body } = await http()
        .post('/users')
        .send({ data: { email, name: 'Ann', password: 'long enough', birth_date: '1990-05-17' } })
        .expect(201);
      expect(body.data).toEqual({
        type: 'users',
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        email,
        name: 'Ann',
        birth_date: '1990-05-17',
        role: 'customer',
        cart_id: body.data.id,
      });
    });

    it('refuses an email taken in any case (409) and bad input (400)', async () => {
      const email = unique('bob');
      await shop.signUp(email);
      const taken = await http()
        .post('/users')
        .send({ data: { email: email.toUpperCase(), name: 'B', password: 'long enough' } })
        .expect(409);
      expect(taken.body).toEqual({ error: ['data.email is already registered'] });
      const bad = await http()
        .post('/users')
        .send({ data: { email: 'not-an-email', name: 'B', password: 'short', role: 'admin' } })
        .expect(400);
      expect(bad.body.error).toEqual([
        'data.role is read-only',
        'data.email must be an email address',
        'data.password must be at least 8 characters',
      ]);
    });
  });

  describe('log-in (POST /sessions, public)', () => {
    it('answers 201 with a JWT carrying sub, sid, iat, exp, iss and aud', async () => {
      const { user } = await shop.customer(unique('carl'));
      const email = (await shop.as(ADMIN_TOKEN).get(`/users/${user.id}`).expect(200)).body.data
        .email;
      const { body } = await http()
        .post('/sessions')
        .send({ data: { email, password: 'correct horse battery' } })
        .expect(201);
      expect(body.data).toEqual({
        type: 'sessions',
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        user_id: user.id,
        token: expect.any(String),
        expires_at: expect.any(String),
      });
      const token = decode(body.data.token, { complete: true })!;
      expect(token.header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      const claims = token.payload as Record<string, unknown>;
      expect(claims).toEqual({
        sub: user.id,
        sid: body.data.id,
        iat: expect.any(Number),
        exp: expect.any(Number),
        iss: 'shop-api',
        aud: 'shop-api',
      });
      expect((claims.exp as number) - (claims.iat as number)).toBe(24 * 3600);
      const read = await shop.as(body.data.token).get(`/sessions/${body.data.id}`).expect(200);
      expect(read.body.data).not.toHaveProperty('token');
    });

    it('answers 401 for a wrong password or an unknown email, without saying which', async () => {
      const email = unique('dora');
      await shop.signUp(email);
      for (const data of [
        { email, password: 'wrong password' },
        { email: unique('nobody'), password: 'correct horse battery' },
      ]) {
        const response = await http().post('/sessions').send({ data }).expect(401);
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expect(response.body).toEqual({ error: ['wrong email or password'] });
      }
    });

    it('throttles repeated failures for one email with 429 and Retry-After', async () => {
      const email = unique('eve');
      await shop.signUp(email);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await http()
          .post('/sessions')
          .send({ data: { email, password: 'wrong password' } })
          .expect(401);
      }
      const blocked = await http()
        .post('/sessions')
        .send({ data: { email, password: 'correct horse battery' } })
        .expect(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body).toEqual({ error: ['too many failed logins; try again later'] });
    });
  });

  describe('bearer tokens', () => {
    let customer: Awaited<ReturnType<ShopClient['customer']>>;

    beforeAll(async () => {
      customer = await shop.customer(unique('fay'));
    });

    // RFC 6750: the bare challenge without a bearer token; invalid_token for one that does not
    // hold, saying why.
    const NO_TOKEN = 'authentication required: send Authorization: Bearer <token>';
    const INVALID = 'the bearer token is invalid or revoked';
    const EXPIRED = 'the bearer token has expired';
    const expect401 = async (authorization: string | undefined, message = INVALID) => {
      const test = http().get(`/users/${customer.user.id}`);
      const response = await (
        authorization === undefined ? test : test.set('Authorization', authorization)
      ).expect(401);
      expect(response.headers['www-authenticate']).toBe(
        message === NO_TOKEN
          ? 'Bearer'
          : `Bearer error="invalid_token", error_description="${message}"`,
      );
      expect(response.body).toEqual({ error: [message] });
    };

    it('a valid token reads its own user', async () => {
      await shop.as(customer.token).get(`/users/${customer.user.id}`).expect(200);
    });

    it('missing or malformed Authorization is 401', async () => {
      await expect401(undefined, NO_TOKEN);
      await expect401('Bearer', NO_TOKEN);
      await expect401(`Basic ${customer.token}`, NO_TOKEN);
      await expect401('Bearer not.a.jwt');
    });

    it('a token with alg none, a modified payload, another key or past its expiry is 401', async () => {
      const claims = decode(customer.token) as Record<string, unknown>;
      const [header, payload, signature] = customer.token.split('.');
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const otherSub = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString(
        'base64url',
      );
      await expect401(`Bearer ${none}`);
      await expect401(`Bearer ${header}.${otherSub}.${signature}`);
      await expect401(`Bearer ${sign(claims, 'another-secret-of-at-least-thirty-two-chars')}`);
      const expired = {
        ...claims,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      };
      await expect401(`Bearer ${sign(expired, TEST_JWT_SECRET)}`, EXPIRED);
      // Expired and forged too: the expiry is not told before the signature holds.
      await expect401(`Bearer ${sign(expired, 'another-secret-of-at-least-thirty-two-chars')}`);
      const wrongAudience = { ...claims, aud: 'someone-else' };
      await expect401(`Bearer ${sign(wrongAudience, TEST_JWT_SECRET)}`);
    });

    it('logging out revokes the token from the next request on', async () => {
      const { token, session } = await shop.customer(unique('gus'));
      await shop.as(token).get(`/sessions/${session.id}`).expect(200);
      const { body } = await shop.as(token).delete(`/sessions/${session.id}`).expect(200);
      expect(body.data).toMatchObject({ id: session.id, type: 'sessions' });
      await shop.as(token).get(`/sessions/${session.id}`).expect(401);
    });

    it('static tokens act for their configured user, who exists after start', async () => {
      const { body } = await shop
        .as(ADMIN_TOKEN)
        .get(`/users?filter[email]=${STATIC_ADMIN.email}`)
        .expect(200);
      expect(body.data).toEqual([
        expect.objectContaining({ email: STATIC_ADMIN.email, role: 'admin', name: 'Ops' }),
      ]);
      await expect401(`Bearer ${ADMIN_TOKEN}x`);
      await http()
        .post('/sessions')
        .send({ data: { email: STATIC_ADMIN.email, password: 'anything at all' } })
        .expect(401);
    });
  });

  describe('ownership: user A against user B', () => {
    let a: Awaited<ReturnType<ShopClient['customer']>>;
    let b: Awaited<ReturnType<ShopClient['customer']>>;

    beforeAll(async () => {
      a = await shop.customer(unique('ada'));
      b = await shop.customer(unique('ben'));
    });

    it.each([
      ['GET', (id: string) => `/users/${id}`],
      ['PATCH', (id: string) => `/users/${id}`],
      ['DELETE', (id: string) => `/users/${id}`],
      ['GET', (id: string) => `/users/${id}/sessions`],
    ] as const)("%s on B's user is 404 for A", async (method, path) => {
      const as = shop.as(a.token);
      const target = path(b.user.id);
      const response =
        method === 'GET'
          ? await as.get(target)
          : method === 'PATCH'
            ? await as.patch(target, { name: 'x' })
            : await as.delete(target);
      expect(response.status).toBe(404);
      await shop.as(b.token).get(`/users/${b.user.id}`).expect(200);
    });

    it("B's session is 404 for A, and A's collections hold only A's rows", async () => {
      await shop.as(a.token).get(`/sessions/${b.session.id}`).expect(404);
      await shop.as(a.token).delete(`/sessions/${b.session.id}`).expect(404);
      await shop.as(b.token).get(`/sessions/${b.session.id}`).expect(200);
      const ids = async (path: string, member = 'id') => {
        const { body } = await shop.as(a.token).get(path).expect(200);
        return (body.data as Record<string, string>[]).map((row) => row[member]);
      };
      expect(await ids('/users')).toEqual([a.user.id]);
      expect(await ids('/sessions', 'user_id')).toEqual([a.user.id]);
      expect(await ids(`/users/${a.user.id}/sessions`)).toEqual([a.session.id]);
    });

    it('A may change and delete only A; deleting removes the sessions', async () => {
      const { body } = await shop
        .as(a.token)
        .patch(`/users/${a.user.id}`, {
          name: 'Ada L.',
          password: 'a new password',
          current_password: 'correct horse battery',
        })
        .expect(200);
      expect(body.data.name).toBe('Ada L.');
      const c = await shop.customer(unique('cy'));
      await shop.as(c.token).delete(`/users/${c.user.id}`).expect(200);
      await shop.as(c.token).get(`/users/${c.user.id}`).expect(401);
      await shop.as(ADMIN_TOKEN).get(`/sessions/${c.session.id}`).expect(404);
    });

    it('an administrator sees everyone', async () => {
      await shop.as(ADMIN_TOKEN).get(`/users/${a.user.id}`).expect(200);
      await shop.as(ADMIN_TOKEN).get(`/sessions/${b.session.id}`).expect(200);
      const { body } = await shop.as(ADMIN_TOKEN).get('/users?limit=100').expect(200);
      expect((body.data as { id: string }[]).map((u) => u.id)).toEqual(
        expect.arrayContaining([a.user.id, b.user.id]),
      );
    });
  });
});

describe('login throttling per client address', () => {
  const failLogin = (service: TestApp, forwardedFor: string) =>
    request(service.http)
      .post('/sessions')
      .set('X-Forwarded-For', forwardedFor)
      .send({ data: { email: unique('x'), password: 'wrong password' } });

  it('by default trusts no proxy: a forged X-Forwarded-For does not dodge the limit', async () => {
    const service = await startTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '3' });
    try {
      for (const forged of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
        await failLogin(service, forged).expect(401);
      }
      await failLogin(service, '10.0.0.4').expect(429);
    } finally {
      await service.close();
    }
  });

  it('with TRUST_PROXY, counts the address the trusted proxy forwarded', async () => {
    // The test client connects over loopback: it plays the gateway.
    const service = await startTestApp({
      TRUST_PROXY: 'loopback',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '3',
    });
    try {
      const address = '10.1.2.7';
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // A client-supplied entry in front of the gateway's changes nothing.
        await failLogin(service, `203.0.113.${attempt}, ${address}`).expect(401);
      }
      await failLogin(service, address).expect(429);
      await failLogin(service, '10.9.9.9').expect(401);
    } finally {
      await service.close();
    }
  });
});

describe('asymmetric signing keys', () => {
  it.each([
    ['ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
    ['RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ] as const)(
    '%s tokens verify with the public key, and HMAC forgeries with it fail',
    async (algorithm, generate) => {
      const { privateKey, publicKey } = generate();
      const pem = {
        JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      };
      const service = await startTestApp({ JWT_ALGORITHM: algorithm, ...pem });
      try {
        const shop = new ShopClient(service.http);
        const { token, user } = await shop.customer(unique('kay'));
        expect(decode(token, { complete: true })!.header.alg).toBe(algorithm);
        await shop.as(token).get(`/users/${user.id}`).expect(200);
        // Algorithm confusion: an HS256 token whose "secret" is the public key.
        const forged = sign(decode(token) as object, pem.JWT_PUBLIC_KEY, { algorithm: 'HS256' });
        await shop.as(forged).get(`/users/${user.id}`).expect(401);
      } finally {
        await service.close();
      }
    },
  );
});

describe('login throttling shared through Redis', () => {
  it('keeps logins working while Redis is unreachable', async () => {
    const service = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const shop = new ShopClient(service.http);
      const email = unique('una');
      await shop.signUp(email);
      await request(service.http)
        .post('/sessions')
        .send({ data: { email, password: 'wrong password' } })
        .expect(401);
      await shop.logIn(email);
    } finally {
      await service.close();
    }
  });

  it('counts failures across two instances', async () => {
    // Redis outlives the run: a fresh client address, forwarded by the loopback "gateway",
    // keeps earlier runs' counts out.
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: 'loopback' };
    const first = await startTestApp(env);
    const second = await startTestApp(env, { database: first.database });
    try {
      const email = unique('ivy');
      const address = `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      await new ShopClient(first.http).signUp(email);
      for (const instance of [first, second, first, second, first]) {
        await request(instance.http)
          .post('/sessions')
          .set('X-Forwarded-For', address)
          .send({ data: { email, password: 'wrong password' } })
          .expect(401);
      }
      const login = (from: string) =>
        request(second.http)
          .post('/sessions')
          .set('X-Forwarded-For', from)
          .send({ data: { email, password: 'correct horse battery' } });
      await login(address).expect(429);
      // Failures from one address never lock the owner out from another (SPEC 1.12).
      await login(address.replace(/^10\.2\./, '10.4.')).expect(201);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
