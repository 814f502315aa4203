import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

// SPEC 1.12 in the kit: a secret shown once stays unreadable, and a relationship path is no
// way around the access of the resources it leads to.
describe('secrets and access through relationships', () => {
  let fixture: FixtureApp;
  let key: { id: string; secret: string };
  let createdTag: string;
  const http = () => request(fixture.http);
  const asAdmin = (path: string) =>
    http().get(path).set('Authorization', `Bearer ${FIXTURE_TOKENS.admin}`);

  beforeAll(async () => {
    fixture = await startFixtureApp();
    const created = await http()
      .post('/keys')
      .send({ data: { label: 'deploy' } })
      .expect(201);
    key = created.body.data;
    createdTag = created.headers.etag;
  });
  afterAll(() => fixture.close());

  it('shows an on-create secret in the answer to its creation only', async () => {
    expect(key.secret).toMatch(/^[0-9a-f]{32}$/);
    const read = await asAdmin(`/keys/${key.id}`).expect(200);
    expect(read.body.data).not.toHaveProperty('secret');
  });

  it("tags a create's answer as the stored resource a read shows, not with its secret", async () => {
    const read = await asAdmin(`/keys/${key.id}`).expect(200);
    expect(createdTag).toBe(read.headers.etag);
    await asAdmin(`/keys/${key.id}`).set('If-None-Match', createdTag).expect(304);
  });

  it('refuses to filter or order by an on-create secret, which gt and lt would read out', async () => {
    const message = 'secret is shown only when it is created, so it cannot be filtered or ordered';
    const half = key.secret.slice(0, 16);
    for (const [path, problem] of [
      [`/keys?filter[secret][gt]=${half}`, `filter[secret][gt]: ${message}`],
      [`/keys?filter[secret]=${key.secret}`, `filter[secret]: ${message}`],
      ['/keys?order=secret', `order: ${message}`],
    ]) {
      const refused = await asAdmin(path).expect(400);
      expect(refused.body).toEqual({ error: [problem] });
    }
  });

  it('checks the access of the resource a relationship path leads to, not only its owner', async () => {
    const lock = (
      await http()
        .post('/locks')
        .send({ data: { key_id: key.id } })
        .expect(201)
    ).body.data;
    await http().get(`/locks/${lock.id}`).expect(200);
    const anonymous = await http().get(`/locks/${lock.id}/key`).expect(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    await http()
      .get(`/locks/${lock.id}/key`)
      .set('Authorization', `Bearer ${FIXTURE_TOKENS.customer}`)
      .expect(403);
    const read = await asAdmin(`/locks/${lock.id}/key`).expect(200);
    expect(read.body.data).toMatchObject({ type: 'keys', id: key.id, label: 'deploy' });
    expect(read.headers['cache-control']).toBe('no-store');
  });
});
