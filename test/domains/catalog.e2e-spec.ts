import request from 'supertest';
import { CatalogDomain } from '../../apps/api/src/domains/catalog.module';
import { ADMIN_TOKEN } from '../support/shop-client';
import { DomainApp, startDomains } from '../support/domain-app';

// SPEC 1.18: the catalog depends on no domain, and boots alone.
describe('the catalog domain, booted alone', () => {
  let domain: DomainApp;

  beforeAll(async () => {
    domain = await startDomains([CatalogDomain]);
  });
  afterAll(() => domain.close());

  it('serves its resources and no other domain\u2019s', async () => {
    expect(await domain.types()).toEqual(['product_revisions', 'products']);
    await request(domain.http).get('/users').expect(404);
  });

  it('reads its products; writes need a caller, whom only accounts knows', async () => {
    const list = await request(domain.http).get('/products').expect(200);
    expect(list.body.data).toEqual([]);
    // The static tokens are granted by accounts (its seeder): alone, no token is known.
    const refused = await request(domain.http)
      .post('/products')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ data: { name: 'Teapot', price_cents: 2500, stock: 3 } });
    expect(refused.status).toBe(401);
  });
});
