import type { EntityClass } from '../metadata/definition';
import type { ResourceTable } from '../persistence/resource-table';
import { Conditions } from '../persistence/selection';
import type { WriteContext } from './request-context';
import { recordedOnlyIf, recordingInTenant } from './write-units';

// What every write shares, without a database: the rows a conditional record waits for, and
// the tenant a tenant's write stamps on what it records.

const table = { sql: { name: 'endpoints' }, prepare: (_: string, value: unknown) => value };

describe('recordedOnlyIf', () => {
  it('reads a value as equal, [null, value] as equal or empty, [null] as empty', () => {
    const rows = recordedOnlyIf(new Conditions(table as unknown as ResourceTable<object>), {
      status: 'active',
      subjectType: [null, 'orders'],
      retiredAt: [null],
    });
    const { shape, values } = rows.idsSubquery();
    expect(shape.where).toEqual([
      { property: 'status', operator: 'eq' },
      { property: 'subjectType', operator: 'eqOrNull' },
      { property: 'retiredAt', operator: 'null', value: true },
    ]);
    expect(values).toEqual(['active', 'orders']);
  });

  it('refuses any other list, naming the member', () => {
    const rows = new Conditions(table as unknown as ResourceTable<object>);
    expect(() => recordedOnlyIf(rows, { action: ['created', 'updated'] })).toThrow(
      'record: action takes a value, [null, value] or [null]',
    );
  });
});

describe('recordingInTenant', () => {
  class Event {}
  class Outbox {}
  const recorded: [EntityClass, object][] = [];
  const write = {
    record: (entity: EntityClass, row: object) => void recorded.push([entity, row]),
  } as unknown as WriteContext;
  const scoped = (entity: EntityClass) => entity === Event;

  beforeEach(() => (recorded.length = 0));

  it("stamps the write's tenant on rows of tenant-scoped tables only", () => {
    const inTenant = recordingInTenant(write, 'a', scoped);
    void inTenant.record(Event, { action: 'created' });
    void inTenant.record(Outbox, { body: '{}' });
    expect(recorded).toEqual([
      [Event, { action: 'created', tenantId: 'a' }],
      [Outbox, { body: '{}' }],
    ]);
  });

  it('leaves a write of no tenant as it is', () => {
    expect(recordingInTenant(write, undefined, scoped)).toBe(write);
  });
});
