import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { User } from '../apps/api/src/modules/users/user.entity';
import { ADMIN_TOKEN, ShopClient, STATIC_ADMIN } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { scaledMs } from './support/machine-load';

// SPEC 1.12, accounts: static accounts, hashing outside transactions, the log-in throttle,
// credential changes and replayed log-ins, on both engines.
jest.setTimeout(scaledMs(60_000));

const PASSWORD = 'correct horse battery';
type Credentials = { email?: string; password?: string };
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
// The test client connects over loopback: with TRUST_PROXY it plays the gateway, and
// X-Forwarded-For names the client. A fresh block per run keeps Redis-free counters apart.
const PROXY = { TRUST_PROXY: 'loopback' };
const logIn = (service: TestApp, email: string, password: string, from = '10.0.0.1') =>
  request(service.http)
    .post('/sessions')
    .set('X-Forwarded-For', from)
    .send({ data: { email, password } });

// The service of one describe block. One at a time: passport's strategies are process-wide,
// so a service started while another runs takes over the other's token checks.
let service: TestApp;
let shop: ShopClient;
function serviceForThisBlock(): void {
  beforeAll(async () => {
    service = await startTestApp(PROXY);
    shop = new ShopClient(service.http);
  });
  afterAll(() => service.close());
}

describe('static accounts', () => {
  it('refuses to start when STATIC_TOKENS names the email of an account that signed up', async () => {
    const database = await createTestDatabase();
    try {
      const email = unique('early');
      const first = await startTestApp({}, { database });
      const shop = new ShopClient(first.http);
      const { token } = await shop.customer(email);
      await first.close();
      const takeover = JSON.stringify([
        STATIC_ADMIN,
        { token: 'a-token-operators-gave-later', email, name: 'Ops', role: 'admin' },
      ]);
      await expect(startTestApp({ STATIC_TOKENS: takeover }, { database })).rejects.toThrow(
        `STATIC_TOKENS names ${email}, the email of an account that signed up`,
      );
      // The account is unchanged: still a customer, whose token makes no products.
      const again = await startTestApp({}, { database });
      const customer = new ShopClient(again.http).as(token);
      await customer.post('/products', { name: 'x', price_cents: 1, stock: 1 }).expect(403);
      await again.close();
    } finally {
      await database.drop();
    }
  });

  describe('on a running service', () => {
    serviceForThisBlock();

    it('lets no sign-up or email change take a configured email', async () => {
      const signUp = await request(service.http)
        .post('/users')
        .send({ data: { email: STATIC_ADMIN.email.toUpperCase(), name: 'M', password: PASSWORD } })
        .expect(409);
      expect(signUp.body).toEqual({ error: ['data.email is already registered'] });
      const { user, token } = await shop.customer(unique('mallory'));
      await shop
        .as(token)
        .patch(`/users/${user.id}`, { email: STATIC_ADMIN.email, current_password: PASSWORD })
        .expect(409);
    });

    it('gives a static account no password, and no way to set one', async () => {
      const { body } = await shop.as(ADMIN_TOKEN).get('/users').expect(200);
      const admin = (body.data as { id: string; email: string }[]).find(
        (user) => user.email === STATIC_ADMIN.email,
      )!;
      const refused = await shop
        .as(ADMIN_TOKEN)
        .patch(`/users/${admin.id}`, { password: 'a new password' })
        .expect(403);
      expect(refused.body.error).toEqual([
        'the email of a static account comes from STATIC_TOKENS, and it has no password',
      ]);
      await logIn(service, STATIC_ADMIN.email, 'a new password').expect(401);
    });
  });
});

describe('password hashing', () => {
  it('hashes outside any transaction: a PATCH stays fast while sign-ups hash', async () => {
    // Today's cost (N=2^17, 128 MiB each, two at a time), more sign-ups than pooled connections.
    // No time limit cuts a sign-up that waits its turn to hash on a loaded machine.
    const hashing = await startTestApp({ PASSWORD_HASH_COST: '17', REQUEST_TIMEOUT_MS: '120000' });
    try {
      const admin = new ShopClient(hashing.http).as(ADMIN_TOKEN);
      const product = (
        await admin.post('/products', { name: 'Kettle', price_cents: 100, stock: 1 }).expect(201)
      ).body.data;
      const finished: string[] = [];
      const signUps = Array.from({ length: 12 }, (_, index) =>
        request(hashing.http)
          .post('/users')
          .send({ data: { email: unique(`rush${index}`), name: 'R', password: PASSWORD } })
          .then((response) => {
            finished.push(`sign-up ${response.status}`);
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin.patch(`/products/${product.id}`, { stock: 2 }).expect(200);
      finished.push('patch');
      await Promise.all(signUps);
      // Before: each sign-up held the database (SQLite's one writer, or a pooled connection)
      // while it hashed, and the PATCH waited for them. Two hash at a time, so at least half
      // are still waiting when a PATCH that waits for none is answered, however busy the
      // machine.
      expect(finished.indexOf('patch')).toBeLessThanOrEqual(6);
      expect(finished.filter((entry) => entry === 'sign-up 201')).toHaveLength(12);
    } finally {
      await hashing.close();
    }
  });

  it('keeps older hashes working and rewrites them at the next log-in', async () => {
    const database = await createTestDatabase();
    try {
      const email = unique('old');
      const before = await startTestApp({ PASSWORD_HASH_COST: '10' }, { database });
      await new ShopClient(before.http).signUp(email);
      await before.close();
      const after = await startTestApp({ PASSWORD_HASH_COST: '11' }, { database });
      const hashOf = async () =>
        (await after.app.get(DataSource).getRepository(User).findOneByOrFail({ emailKey: email }))
          .passwordHash;
      expect(await hashOf()).toMatch(/^scrypt\$1024\$8\$1\$/);
      await new ShopClient(after.http).logIn(email);
      expect(await hashOf()).toMatch(/^scrypt\$2048\$8\$1\$/);
      await new ShopClient(after.http).logIn(email);
      await after.close();
    } finally {
      await database.drop();
    }
  });

  it('limits sign-ups per client address (429 with Retry-After), counting each before hashing', async () => {
    const limited = await startTestApp({ ...PROXY, SIGNUP_MAX_PER_ADDRESS: '3' });
    try {
      const signUp = (from: string) =>
        request(limited.http)
          .post('/users')
          .set('X-Forwarded-For', from)
          .send({ data: { email: unique('many'), name: 'M', password: PASSWORD } });
      const statuses = await Promise.all(Array.from({ length: 6 }, () => signUp('10.5.0.1')));
      expect(statuses.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
      const refused = statuses.find((r) => r.status === 429)!;
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toEqual({
        error: ['too many sign-ups from this address; try again later'],
      });
      await signUp('10.5.0.2').expect(201);
    } finally {
      await limited.close();
    }
  });

  it('counts an IPv6 /64 as one address, and IPv4-mapped IPv6 as its IPv4 address', async () => {
    const limited = await startTestApp({ ...PROXY, SIGNUP_MAX_PER_ADDRESS: '2' });
    try {
      const signUp = (from: string) =>
        request(limited.http)
          .post('/users')
          .set('X-Forwarded-For', from)
          .send({ data: { email: unique('v6'), name: 'V', password: PASSWORD } });
      await signUp('2001:db8:5:1::1').expect(201);
      await signUp('2001:db8:5:1::2').expect(201);
      await signUp('2001:db8:5:1:ffff:ffff:ffff:ffff').expect(429);
      await signUp('2001:db8:5:2::1').expect(201);
      await signUp('::ffff:10.9.0.1').expect(201);
      await signUp('10.9.0.1').expect(201);
      await signUp('::ffff:a09:1').expect(429);
    } finally {
      await limited.close();
    }
  });

  it('takes as long to refuse a static account as any other', async () => {
    const timed = await startTestApp({ PASSWORD_HASH_COST: '15' });
    try {
      const customer = unique('timed');
      await new ShopClient(timed.http).signUp(customer);
      const median = async (email: string) => {
        const times: number[] = [];
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const started = process.hrtime.bigint();
          await logIn(timed, email, `wrong password ${attempt}`).expect(401);
          times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        return times.sort((a, b) => a - b)[1];
      };
      const [staticAccount, signedUp, unknown] = [
        await median(STATIC_ADMIN.email),
        await median(customer),
        await median(unique('nobody')),
      ];
      // Each checks a password at the same cost; before, a static account answered ~50x sooner.
      expect(staticAccount / signedUp).toBeGreaterThan(0.5);
      expect(unknown / signedUp).toBeGreaterThan(0.5);
    } finally {
      await timed.close();
    }
  });
});

describe('the log-in throttle', () => {
  serviceForThisBlock();

  it('never locks the owner out from another address', async () => {
    const email = unique('owner');
    await shop.signUp(email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await logIn(service, email, 'wrong password', '10.6.0.1').expect(401);
    }
    const attacker = await logIn(service, email, PASSWORD, '10.6.0.1').expect(429);
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);
    await logIn(service, email, PASSWORD, '10.6.0.2').expect(201);
  });

  it('counts before checking: parallel attempts cannot exceed the limit', async () => {
    const email = unique('burst');
    await shop.signUp(email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => logIn(service, email, 'wrong password', '10.6.1.1')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('slows an account attacked from many addresses down for seconds, not minutes', async () => {
    const email = unique('target');
    await shop.signUp(email);
    for (let address = 1; address <= 10; address += 1) {
      await logIn(service, email, 'wrong password', `10.6.2.${address}`).expect(401);
    }
    const slowed = await logIn(service, email, PASSWORD, '10.6.3.1').expect(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(30);
  });
});

describe('changing a password or email', () => {
  serviceForThisBlock();

  it('needs the current password, and nothing changes without it', async () => {
    const email = unique('pat');
    const { user, token } = await shop.customer(email);
    const me = shop.as(token);
    const missing = await me.patch(`/users/${user.id}`, { password: 'a new password' }).expect(400);
    expect(missing.body).toEqual({
      error: ['data.current_password is required to change the password or email'],
    });
    const wrong = await me
      .patch(`/users/${user.id}`, { email: unique('pat2'), current_password: 'not it at all' })
      .expect(400);
    expect(wrong.body).toEqual({ error: ['data.current_password is not the current password'] });
    await shop.logIn(email);
    const profile = await me.get(`/users/${user.id}`).expect(200);
    expect(profile.body.data.email).toBe(email);
    expect(profile.body.data).not.toHaveProperty('current_password');
  });

  it.each([
    ['password', (): Credentials => ({ password: 'a brand new password' })],
    ['email', (): Credentials => ({ email: unique('changed') })],
  ])('ends every other session when the %s changes', async (_member, changeOf) => {
    const email = unique('sid');
    const { user, token } = await shop.customer(email);
    const other = await shop.logIn(email);
    const change = changeOf();
    const changed = await shop
      .as(token)
      .patch(`/users/${user.id}`, { ...change, current_password: PASSWORD })
      .expect(200);
    expect(changed.body.data).not.toHaveProperty('current_password');
    // The session that made the change goes on; the other is over.
    await shop.as(token).get(`/users/${user.id}`).expect(200);
    await shop.as(other.token).get(`/users/${user.id}`).expect(401);
    const sessions = await shop.as(token).get(`/users/${user.id}/sessions`).expect(200);
    expect(sessions.body.data).toHaveLength(1);
    await shop.logIn(change.email ?? email, change.password ?? PASSWORD);
    if (change.password) await logIn(service, email, PASSWORD).expect(401);
  });

  it('lets an administrator change a customer\u2019s email without it, ending all their sessions', async () => {
    const { user, token } = await shop.customer(unique('adm'));
    await shop
      .as(ADMIN_TOKEN)
      .patch(`/users/${user.id}`, { email: unique('moved') })
      .expect(200);
    await shop.as(token).get(`/users/${user.id}`).expect(401);
  });
});

describe('replayed log-ins (Idempotency-Key)', () => {
  serviceForThisBlock();

  const keyed = (key: string, email: string, password: string, from = '10.7.0.1') =>
    logIn(service, email, password, from).set('Idempotency-Key', key);

  it('stores no token, and answers the same token again on a replay', async () => {
    const email = unique('replay');
    await shop.signUp(email);
    const key = randomUUID();
    const first = await keyed(key, email, PASSWORD).expect(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const { token } = first.body.data;
    const stored: { body: string }[] = await service.app
      .get(DataSource)
      .createQueryBuilder()
      .select('body')
      .from('idempotency_keys', 'answer')
      .where('answer.key = :key', { key })
      .getRawMany();
    expect(stored).toHaveLength(1);
    expect(stored[0].body).not.toContain(token);
    expect(stored[0].body).not.toContain('token');
    const replayed = await keyed(key, email, PASSWORD).expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['cache-control']).toBe('no-store');
    expect(replayed.body).toEqual(first.body);
    await shop.as(replayed.body.data.token).get(`/users/${first.body.data.user_id}`).expect(200);
  });

  it('is no password oracle: a replay with another password is a failed log-in, throttled', async () => {
    const email = unique('oracle');
    await shop.signUp(email);
    const key = randomUUID();
    await keyed(key, email, PASSWORD, '10.7.1.1').expect(201);
    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await keyed(key, email, `guess number ${guess}`, '10.7.1.1').expect(401);
      expect(wrong.body).toEqual({ error: ['wrong email or password'] });
    }
    // Throttled like the original: the right password no longer tells from this address.
    await keyed(key, email, PASSWORD, '10.7.1.1').expect(429);
  });
});

describe('sessions belong to the credentials', () => {
  serviceForThisBlock();

  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string };
  const logInWith = (bearer: string, email: string, password: string) =>
    logIn(service, email, password, '10.8.0.1').set('Authorization', `Bearer ${bearer}`);

  it.each([
    [
      'another customer\u2019s token',
      async (): Promise<string> => (await shop.customer(unique('bearer'))).token,
    ],
    ['a static admin token', () => Promise.resolve(ADMIN_TOKEN)],
  ])('gives the credentials\u2019 account a session, beside %s', async (_bearer, bearerOf) => {
    const bearer = await bearerOf();
    const victim = unique('victim');
    const { id } = await shop.signUp(victim);
    const session = await logInWith(bearer, victim, PASSWORD).expect(201);
    const created = session.body as { data: { id: string; user_id: string; token: string } };
    expect(created.data.user_id).toBe(id);
    const { token } = created.data;
    expect(claimsOf(token).sub).toBe(id);
    // The account's own role (customer), never the bearer's, and its owner can end it.
    await shop.as(token).post('/products', { name: 'P', price_cents: 1, stock: 1 }).expect(403);
    const own = await shop.as(token).get(`/users/${id}/sessions`).expect(200);
    const ownIds = (own.body as { data: { id: string }[] }).data.map((s) => s.id);
    expect(ownIds).toContain(created.data.id);
    await shop.as(token).delete(`/sessions/${created.data.id}`).expect(200);
    await shop.as(token).get(`/users/${id}`).expect(401);
    await logInWith(bearer, victim, 'not the password').expect(401);
  });

  it('ends the log-ins that raced a password change, once it commits', async () => {
    for (let round = 0; round < 3; round += 1) {
      const email = unique('race');
      const { user, token } = await shop.customer(email);
      let changed = false;
      const change = shop
        .as(token)
        .patch(`/users/${user.id}`, {
          password: 'a brand new password',
          current_password: PASSWORD,
        })
        .then((answer) => {
          changed = true;
          return answer;
        });
      // Waves of log-ins with the old password until the change answers, and one after.
      const tokens: string[] = [];
      do {
        const wave = await Promise.all(
          Array.from({ length: 4 }, () => logIn(service, email, PASSWORD, `10.8.1.${round}`)),
        );
        for (const answer of wave) {
          if (answer.status === 201)
            tokens.push((answer.body as { data: { token: string } }).data.token);
        }
      } while (!changed);
      expect((await change).status).toBe(200);
      await shop.as(token).get(`/users/${user.id}`).expect(200);
      for (const raced of tokens) await shop.as(raced).get(`/users/${user.id}`).expect(401);
    }
  });
});
