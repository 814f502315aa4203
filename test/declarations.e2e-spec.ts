import { DataSource } from 'typeorm';
import { ResourceDefinition, ResourceRegistry, ResourceService } from '@app/resource-kit';
import { startTestApp, TestApp } from './support/test-app';

// The resources of the shop's contract (SPEC 2) and the operations it makes public. Resources
// added later are checked by the same invariants, never listed here.
const CONTRACT_RESOURCES = [
  'cart_items',
  'carts',
  'events',
  'order_items',
  'orders',
  'product_revisions',
  'products',
  'sessions',
  'users',
];
const CONTRACT_PUBLIC_OPERATIONS = [
  'create sessions',
  'create users',
  'list product_revisions',
  'list products',
  'read product_revisions',
  'read products',
];
// Signing up and logging in are the only writes anyone may make without a token.
const PUBLIC_WRITES = ['create sessions', 'create users'];

const publicOperationsOf = (definition: ResourceDefinition) =>
  [...definition.access]
    .filter(([, level]) => level === 'public')
    .map(([operation]) => `${operation} ${definition.type}`);

// Invariants every resource of the shop must keep, checked on the declarations themselves.
describe('resource declarations', () => {
  let service: TestApp;
  let registry: ResourceRegistry;
  let definitions: ResourceDefinition[];

  beforeAll(async () => {
    service = await startTestApp();
    registry = service.app.get(ResourceRegistry);
    definitions = registry.definitions();
  });
  afterAll(() => service.close());

  it('declare the shop of the contract, and every declared resource has its table', () => {
    const types = definitions.map((definition) => definition.type);
    expect(types).toEqual(expect.arrayContaining(CONTRACT_RESOURCES));
    const tables = service.app
      .get(DataSource)
      .entityMetadatas.map((metadata) => metadata.tableName);
    expect(tables).toEqual(expect.arrayContaining(types));
  });

  it('make public exactly what the contract says of its resources, and no other write', () => {
    const ofContract = definitions.filter((d) => CONTRACT_RESOURCES.includes(d.type));
    expect(ofContract.flatMap(publicOperationsOf).sort()).toEqual(CONTRACT_PUBLIC_OPERATIONS);
    const publicWrites = definitions
      .flatMap(publicOperationsOf)
      .filter((operation) => !/^(list|read) /.test(operation));
    expect(publicWrites.sort()).toEqual(PUBLIC_WRITES);
  });

  it('keep private rows private: every resource open to customers has an owner, a tenant or its own scope', () => {
    const scoped = (definition: ResourceDefinition) =>
      (registry.serviceOf(definition.entity) as ResourceService)['scope'] !==
      ResourceService.prototype['scope'];
    const unguarded = definitions
      .filter((definition) => [...definition.access.values()].includes('authenticated'))
      .filter((definition) => !definition.owner && !definition.tenant && !scoped(definition))
      .map((definition) => definition.type);
    expect(unguarded).toEqual([]);
  });

  it('point every relationship at a registered resource', () => {
    for (const definition of definitions) {
      const targets = [...definition.toOne.values()]
        .map((a) => a.reference!.target())
        .concat([...definition.toMany.values()].map((r) => r.target()));
      for (const target of targets) expect(() => registry.serviceOf(target)).not.toThrow();
    }
  });
});
