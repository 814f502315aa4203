import type { Caller } from '../auth/caller';
import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { ToOne } from '../decorators/to-one.decorator';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import { readResourceDefinition } from '../metadata/definition.reader';
import type { ResourceTable } from '../persistence/resource-table';
import { Conditions } from '../persistence/selection';
import { ownRows, readableRows, tenantRows, type ResourceOf } from './row-access';

// The conditions a caller's reads and writes get, without a database: what the compiled
// statement binds (the select compiler's spec covers the SQL each predicate becomes).

@Resource({
  type: 'boards',
  owner: 'authorId',
  access: { list: 'public', read: 'public', create: 'authenticated', update: 'authenticated' },
})
class Board extends ResourceEntity {
  @Attribute({ type: 'string', writable: false }) authorId!: string;
}

@Resource({
  type: 'pins',
  owner: 'boardId.authorId',
  access: { list: 'authenticated', read: 'authenticated', update: 'authenticated' },
})
class Pin extends ResourceEntity {
  @ToOne(() => Board, { writable: true }) boardId!: string;
}

@Resource({ type: 'channels', tenant: true, access: { list: 'authenticated' } })
class Channel extends ResourceEntity {}

@Resource({ type: 'audit', tenant: 'inherited', access: { list: 'admin', read: 'admin' } })
class Audit extends ResourceEntity {}

@Resource({
  type: 'events',
  tenant: 'inherited',
  tenantlessRows: 'readable',
  access: { list: 'authenticated', read: 'authenticated', update: 'admin' },
})
class Event extends ResourceEntity {}

const tableOf = (name: string) =>
  ({
    sql: { name },
    prepare: (_: string, value: unknown) => value,
  }) as unknown as ResourceTable<object>;
const resourceOf: ResourceOf = (entity: EntityClass) => ({
  definition: readResourceDefinition(entity),
  table: tableOf(readResourceDefinition(entity).type),
});

const customer: Caller = { id: 'u1', role: 'customer' };
const admin: Caller = { id: 'a1', role: 'admin' };
const tenantA: Caller = { id: 'm1', role: 'customer', tenant: 'a' };
const operator: Caller = { id: 'o1', role: 'admin', tenant: null };

// What `add` puts on a fresh table's rows: its predicates and the values they bind.
function conditionsOf(definition: ResourceDefinition, add: (rows: Conditions) => void) {
  const rows = new Conditions(tableOf(definition.type));
  add(rows);
  const { shape, values } = rows.idsSubquery();
  return { where: shape.where, values };
}

describe('ownRows', () => {
  const boards = readResourceDefinition(Board);
  const pins = readResourceDefinition(Pin);
  const own = (
    definition: ResourceDefinition,
    caller: Caller | undefined,
    operation: 'read' | 'update',
  ) =>
    conditionsOf(definition, (rows) =>
      ownRows(rows, definition, caller, definition.access.get(operation), resourceOf),
    );

  it('adds nothing to a public operation, or for an administrator', () => {
    expect(own(boards, undefined, 'read')).toEqual({ where: [], values: [] });
    expect(own(boards, admin, 'update')).toEqual({ where: [], values: [] });
  });

  it("keeps a signed-in caller's writes to the rows it owns", () => {
    expect(own(boards, customer, 'update')).toEqual({
      where: [{ property: 'authorId', operator: 'eq' }],
      values: ['u1'],
    });
  });

  it('reaches the owner through a parent: a pin is its board author\u2019s', () => {
    expect(own(pins, customer, 'read')).toEqual({
      where: [
        {
          operator: 'exists',
          hop: { table: { name: 'boards' }, near: 'boardId', far: 'id' },
          where: [{ property: 'authorId', operator: 'eq' }],
        },
      ],
      values: ['u1'],
    });
  });

  it('gives an anonymous caller no owner: its owner-only rows are those of nobody', () => {
    expect(own(pins, undefined, 'read').values).toEqual([null]);
  });
});

describe('tenantRows', () => {
  const rowsOf = (
    entity: EntityClass,
    caller: Caller | undefined,
    operation: 'read' | 'update',
  ) => {
    const definition = readResourceDefinition(entity);
    return conditionsOf(definition, (rows) => tenantRows(rows, definition, caller, operation));
  };

  it("confines a tenant's caller to its tenant's rows, reads and writes alike", () => {
    for (const operation of ['read', 'update'] as const) {
      expect(rowsOf(Channel, tenantA, operation)).toEqual({
        where: [{ property: 'tenantId', operator: 'eq' }],
        values: ['a'],
      });
    }
  });

  it('gives a caller without a tenant no row of a tenant-scoped resource', () => {
    expect(rowsOf(Channel, customer, 'read').where).toEqual([{ operator: 'none' }]);
    expect(rowsOf(Channel, admin, 'read').where).toEqual([{ operator: 'none' }]);
  });

  it('lets a cross-tenant operator reach every row', () => {
    expect(rowsOf(Channel, operator, 'update')).toEqual({ where: [], values: [] });
    expect(rowsOf(Audit, operator, 'read')).toEqual({ where: [], values: [] });
  });

  it("keeps an inherited resource's rows of no tenant to callers without one", () => {
    expect(rowsOf(Audit, admin, 'read').where).toEqual([
      { property: 'tenantId', operator: 'null', value: true },
    ]);
    expect(rowsOf(Audit, tenantA, 'read')).toEqual({
      where: [{ property: 'tenantId', operator: 'eq' }],
      values: ['a'],
    });
  });

  it('shows rows of no tenant to a tenant where declared readable, for reads only', () => {
    expect(rowsOf(Event, tenantA, 'read')).toEqual({
      where: [{ property: 'tenantId', operator: 'eqOrNull' }],
      values: ['a'],
    });
    expect(rowsOf(Event, tenantA, 'update')).toEqual({
      where: [{ property: 'tenantId', operator: 'eq' }],
      values: ['a'],
    });
  });
});

describe('readableRows (the related rows a filter goes through)', () => {
  const readable = (entity: EntityClass, caller: Caller | undefined) => {
    const definition = readResourceDefinition(entity);
    return conditionsOf(definition, (rows) => readableRows(rows, definition, caller, resourceOf));
  };

  it('is none of a resource the caller may not read at all', () => {
    expect(readable(Audit, customer).where).toEqual([{ operator: 'none' }]);
    expect(readable(Pin, undefined).where).toEqual([{ operator: 'none' }]);
  });

  it('is every row of a public one, and the caller\u2019s own of an owned one', () => {
    expect(readable(Board, undefined)).toEqual({ where: [], values: [] });
    expect(readable(Pin, customer).where).toEqual([
      expect.objectContaining({
        operator: 'exists',
        where: [{ property: 'authorId', operator: 'eq' }],
      }),
    ]);
  });

  it("is the tenant's rows, with its readable rows of none, of a tenant-scoped one", () => {
    expect(readable(Event, tenantA)).toEqual({
      where: [{ property: 'tenantId', operator: 'eqOrNull' }],
      values: ['a'],
    });
  });
});
