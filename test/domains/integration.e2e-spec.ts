import { AccountsDomain } from '../../apps/api/src/domains/accounts.module';
import { CatalogDomain } from '../../apps/api/src/domains/catalog.module';
import { IntegrationDomain } from '../../apps/api/src/domains/integration.module';
import { ADMIN_TOKEN, ShopClient } from '../support/shop-client';
import { DomainApp, startDomains } from '../support/domain-app';

// SPEC 1.18: integration with accounts, the domain it depends on (and catalog, on which
// accounts depends), without ordering.
describe('the integration domain, with accounts', () => {
  let domain: DomainApp;
  let shop: ShopClient;

  beforeAll(async () => {
    domain = await startDomains([IntegrationDomain, AccountsDomain, CatalogDomain]);
    shop = new ShopClient(domain.http);
  });
  afterAll(() => domain.close());

  it('serves its resources and those of its dependencies, none of ordering', async () => {
    expect(await domain.types()).toEqual([
      'carts',
      'events',
      'product_revisions',
      'products',
      'sessions',
      'users',
      'webhook_deliveries',
      'webhook_endpoints',
    ]);
    await shop.as(ADMIN_TOKEN).get('/orders').expect(404);
  });

  it('records an event of a write of accounts, which its user reads', async () => {
    const { user, token } = await shop.customer('cy@example.com');
    const events = await shop.as(token).get('/events').expect(200);
    expect(events.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'created', subject: { type: 'users', id: user.id } }),
      ]),
    );
  });
});
