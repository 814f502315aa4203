import { DataSource } from 'typeorm';
import { ResourceRegistry } from '@app/resource-kit';
import { startTestApp, TestApp } from './support/test-app';

// Invariants every resource of the shop must keep, checked on the declarations themselves.
describe('resource declarations', () => {
  let service: TestApp;
  let registry: ResourceRegistry;

  beforeAll(async () => {
    service = await startTestApp();
    registry = service.app.get(ResourceRegistry);
  });
  afterAll(() => service.close());

  it('declare the shop of the contract, every one with its table', () => {
    const types = registry
      .definitions()
      .map((definition) => definition.type)
      .sort();
    expect(types).toEqual([
      'cart_items',
      'carts',
      'events',
      'order_items',
      'orders',
      'product_revisions',
      'products',
      'sessions',
      'users',
    ]);
    const tables = service.app
      .get(DataSource)
      .entityMetadatas.map((metadata) => metadata.tableName);
    expect(tables).toEqual(expect.arrayContaining(types));
  });

  it('declare an access level for every operation, and only public ones where the contract says', () => {
    const publicOperations = registry
      .definitions()
      .flatMap((definition) =>
        [...definition.access]
          .filter(([, level]) => level === 'public')
          .map(([operation]) => `${operation} ${definition.type}`),
      )
      .sort();
    expect(publicOperations).toEqual([
      'create sessions',
      'create users',
      'list product_revisions',
      'list products',
      'read product_revisions',
      'read products',
    ]);
  });

  it('keep private rows private: every non-public resource has an owner or its own scope', () => {
    const unowned = registry
      .definitions()
      .filter(
        (definition) =>
          [...definition.access.values()].some((level) => level === 'authenticated') &&
          !definition.owner,
      )
      .map((definition) => definition.type);
    expect(unowned).toEqual(['order_items']); // scoped through its order (OrderItemsService.scope)
  });

  it('point every relationship at a registered resource', () => {
    for (const definition of registry.definitions()) {
      const targets = [...definition.toOne.values()]
        .map((a) => a.reference!.target())
        .concat([...definition.toMany.values()].map((r) => r.target()));
      for (const target of targets) expect(() => registry.serviceOf(target)).not.toThrow();
    }
  });
});
