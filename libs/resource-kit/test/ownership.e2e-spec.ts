import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

// SPEC 1.12 in the kit: a value that a resource's own logic sets on create (an owner) is
// never overwritten by the kit's default (the caller).
describe('owners set by a resource on create', () => {
  let fixture: FixtureApp;
  const as = (token: string) => ({
    post: (data: object) =>
      request(fixture.http).post('/badges').set('Authorization', `Bearer ${token}`).send({ data }),
    get: (path: string) => request(fixture.http).get(path).set('Authorization', `Bearer ${token}`),
  });
  const customer = as(FIXTURE_TOKENS.customer);
  const admin = as(FIXTURE_TOKENS.admin);

  beforeAll(async () => {
    fixture = await startFixtureApp();
  });
  afterAll(() => fixture.close());

  it('keeps the owner the create hook chose, whoever the caller is', async () => {
    for (const creator of [customer, admin]) {
      const created = await creator.post({ hand_to: 'holder-7' }).expect(201);
      expect(created.body.data.holder_id).toBe('holder-7');
      const stored = await admin.get(`/badges/${created.body.data.id}`).expect(200);
      expect(stored.body.data.holder_id).toBe('holder-7');
      // Not the creator's: the customer who made it for someone else cannot read it.
      await customer.get(`/badges/${created.body.data.id}`).expect(404);
    }
  });

  it('makes the creator the owner when the resource sets none', async () => {
    const created = await customer.post({}).expect(201);
    expect(created.body.data.holder_id).toBe('customer-1');
    await customer.get(`/badges/${created.body.data.id}`).expect(200);
  });
});
