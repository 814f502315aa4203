import request from 'supertest';
import type { App } from 'supertest/types';

export const ADMIN_TOKEN = 'admin-token-for-the-e2e-tests';
export const STATIC_ADMIN = {
  token: ADMIN_TOKEN,
  email: 'ops@example.com',
  name: 'Ops',
  role: 'admin',
};

/**
 * Administrators of two tenants and a cross-tenant operator (SPEC 1.15), for the specs of
 * tenant-scoped resources: `startTestApp({ STATIC_TOKENS: TENANT_TOKENS })`. The shop's
 * sessions carry no tenant; these tokens name one. The first is ADMIN_TOKEN, in tenant acme.
 */
export const OTHER_TENANT_ADMIN_TOKEN = 'admin-token-of-another-tenant-e2e';
export const CROSS_TENANT_TOKEN = 'cross-tenant-operator-token-e2e';
export const TENANT_TOKENS = JSON.stringify([
  { ...STATIC_ADMIN, tenant: 'acme' },
  {
    token: OTHER_TENANT_ADMIN_TOKEN,
    email: 'globex-ops@example.com',
    name: 'Globex ops',
    role: 'admin',
    tenant: 'globex',
  },
  {
    token: CROSS_TENANT_TOKEN,
    email: 'operator@example.com',
    name: 'Operator',
    role: 'admin',
    tenant: null,
  },
]);

/** What the e2e specs of the shop do over and over: sign up, log in, call with a token. */
export class ShopClient {
  constructor(private readonly http: App) {}

  async signUp(email: string, password = 'correct horse battery') {
    const response = await request(this.http)
      .post('/users')
      .send({ data: { email, name: email.split('@')[0], password } });
    if (response.status !== 201)
      throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as { id: string; email: string };
  }

  async logIn(email: string, password = 'correct horse battery') {
    const response = await request(this.http).post('/sessions').send({ data: { email, password } });
    if (response.status !== 201)
      throw new Error(`log-in failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as { id: string; token: string; user_id: string };
  }

  /** A signed-up, logged-in customer. */
  async customer(email: string) {
    const user = await this.signUp(email);
    const session = await this.logIn(email);
    return { user, session, token: session.token };
  }

  as(token: string) {
    const auth = (test: request.Test) => test.set('Authorization', `Bearer ${token}`);
    return {
      get: (path: string) => auth(request(this.http).get(path)),
      post: (path: string, data: object) => auth(request(this.http).post(path)).send({ data }),
      patch: (path: string, data: object) => auth(request(this.http).patch(path)).send({ data }),
      delete: (path: string) => auth(request(this.http).delete(path)),
    };
  }
}
