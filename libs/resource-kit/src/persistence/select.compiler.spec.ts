import type { OrderKey } from '../query/order.parser';
import { compileSelect, SelectShape, shapeKey, TableSql } from './select.compiler';
import { POSTGRES_DIALECT as postgres, SQLITE_DIALECT as sqlite } from './sql-dialects';

const table: TableSql = {
  from: '"widgets" "resource"',
  alias: '"resource"',
  selectList: '"resource"."id" AS "id", "resource"."name" AS "name"',
  column: (property) => `"resource"."${property}"`,
  name: '"widgets"',
  columnAs: (alias, property) => `${alias}."${property}"`,
};

const key = (property: string, direction: 'ASC' | 'DESC', nullable = false): OrderKey => ({
  member: { name: property, property, type: 'string', nullable },
  direction,
});

describe('compileSelect', () => {
  it('reads one row by id and owner, every value a placeholder', () => {
    const shape: SelectShape = {
      where: [
        { property: 'userId', operator: 'eq' },
        { property: 'id', operator: 'eq' },
      ],
    };
    expect(compileSelect(shape, table, postgres)).toEqual({
      sql:
        'SELECT "resource"."id" AS "id", "resource"."name" AS "name" FROM "widgets" "resource"' +
        ' WHERE "resource"."userId" = $1 AND "resource"."id" = $2',
      slots: [0, 1],
    });
  });

  it('writes each filter operator, binding in, ne and contains without inlining values', () => {
    const shape: SelectShape = {
      where: [
        { property: 'kind', operator: 'in', count: 2 },
        { property: 'name', operator: 'ne' },
        { property: 'name', operator: 'contains' },
        { property: 'gadgetId', operator: 'null', value: true },
        { property: 'quantity', operator: 'gte' },
      ],
    };
    const { sql, slots } = compileSelect(shape, table, postgres);
    expect(sql).toContain(
      'WHERE "resource"."kind" IN ($1, $2) AND ("resource"."name" <> $3 OR "resource"."name" IS NULL)' +
        ` AND LOWER("resource"."name" COLLATE "und-x-icu") LIKE $4 ESCAPE '\\' AND "resource"."gadgetId" IS NULL` +
        ' AND "resource"."quantity" >= $5',
    );
    expect(slots).toEqual([0, 1, 2, 3, 4]);
  });

  it("binds a tenant's rows together with the rows of none once (an inherited tenant)", () => {
    const shape: SelectShape = { where: [{ property: 'tenantId', operator: 'eqOrNull' }] };
    const { sql, slots } = compileSelect(shape, table, sqlite);
    expect(sql).toContain('WHERE ("resource"."tenantId" = ? OR "resource"."tenantId" IS NULL)');
    expect(slots).toEqual([0]);
  });

  describe('a page with contains', () => {
    const order = [key('createdAt', 'ASC'), key('id', 'ASC')];
    // Values: quantity, name, the cursor's two keys, the limit, the window.
    const shape = (search: 'window' | 'searchFirst'): SelectShape => ({
      where: [
        { property: 'quantity', operator: 'gte' },
        { property: 'name', operator: 'contains' },
      ],
      order,
      after: [false, false],
      limit: true,
      search,
    });
    const contains = `LOWER("resource"."name" COLLATE "und-x-icu") LIKE`;
    const ordered = ' ORDER BY "resource"."createdAt" ASC, "resource"."id" ASC';

    it('looks at a window of rows in the order first, filtering by the substring after', () => {
      expect(compileSelect(shape('window'), table, postgres)).toEqual({
        sql:
          `SELECT ${table.selectList} FROM (SELECT "resource".* FROM "widgets" "resource"` +
          ` WHERE "resource"."quantity" >= $1 AND ("resource"."createdAt", "resource"."id") > ($2, $3)` +
          `${ordered} LIMIT $4) "resource" WHERE ${contains} $5 ESCAPE '\\'${ordered} LIMIT $6`,
        slots: [0, 2, 3, 5, 1, 4],
      });
      // SQLite binds by position: the slots follow the text.
      expect(compileSelect(shape('window'), table, sqlite).slots).toEqual([0, 2, 3, 5, 1, 4]);
    });

    it('else reads every match behind a fence, so that no plan walks the order', () => {
      expect(compileSelect(shape('searchFirst'), table, postgres)).toEqual({
        sql:
          `WITH found AS MATERIALIZED (SELECT "resource".* FROM "widgets" "resource"` +
          ` WHERE "resource"."quantity" >= $1 AND ${contains} $2 ESCAPE '\\'` +
          ` AND ("resource"."createdAt", "resource"."id") > ($3, $4))` +
          ` SELECT ${table.selectList} FROM found "resource"${ordered} LIMIT $5`,
        slots: [0, 1, 2, 3, 4],
      });
    });

    it('caches each form apart', () => {
      expect(shapeKey(shape('window'))).not.toBe(shapeKey(shape('searchFirst')));
    });
  });

  it('pages after a cursor with a row comparison when the keys are uniform and non-null', () => {
    const order = [key('createdAt', 'ASC'), key('id', 'ASC')];
    const shape: SelectShape = {
      where: [{ property: 'quantity', operator: 'gte' }],
      order,
      after: [false, false],
      limit: true,
    };
    expect(compileSelect(shape, table, postgres)).toEqual({
      sql:
        `SELECT ${table.selectList} FROM "widgets" "resource" WHERE "resource"."quantity" >= $1` +
        ' AND ("resource"."createdAt", "resource"."id") > ($2, $3)' +
        ' ORDER BY "resource"."createdAt" ASC, "resource"."id" ASC LIMIT $4',
      slots: [0, 1, 2, 3],
    });
  });

  it('expands mixed directions and null cursor keys, one placeholder per use on SQLite', () => {
    const order = [key('releasedOn', 'DESC', true), key('id', 'ASC')];
    const { sql, slots } = compileSelect(
      { where: [], order, after: [false, false], limit: true },
      table,
      sqlite,
    );
    expect(sql).toContain(
      'WHERE ((("resource"."releasedOn" < ? OR "resource"."releasedOn" IS NULL)) OR ' +
        '("resource"."releasedOn" = ? AND "resource"."id" > ?))' +
        ' ORDER BY "resource"."releasedOn" DESC NULLS LAST, "resource"."id" ASC LIMIT ?',
    );
    expect(slots).toEqual([0, 0, 1, 2]);
    const afterNull = compileSelect({ where: [], order, after: [true, false] }, table, sqlite);
    expect(afterNull.sql).toContain(
      'WHERE ((1 = 0) OR ("resource"."releasedOn" IS NULL AND "resource"."id" > ?))',
    );
    expect(afterNull.slots).toEqual([1]);
  });

  it('numbers its placeholders after a scope subquery that comes first', () => {
    const shape: SelectShape = {
      within: { sql: 'SELECT id FROM "widgets" WHERE owner = $1', parameters: 1 },
      where: [{ property: 'id', operator: 'eq' }],
      lock: true,
    };
    expect(compileSelect(shape, table, postgres).sql).toBe(
      `SELECT ${table.selectList} FROM "widgets" "resource"` +
        ' WHERE "resource"."id" IN (SELECT id FROM "widgets" WHERE owner = $1)' +
        ' AND "resource"."id" = $2 FOR UPDATE',
    );
  });

  it('nests related rows in EXISTS, two hops deep, binding their values in order', () => {
    const related = (name: string): TableSql => ({
      ...table,
      name: `"${name}"`,
      columnAs: (alias, property) => `${alias}."${property}"`,
    });
    const shape: SelectShape = {
      where: [
        { property: 'name', operator: 'eq' },
        {
          operator: 'exists',
          hop: { table: related('gizmos'), near: 'id', far: 'widgetId' },
          where: [
            {
              operator: 'exists',
              hop: { table: related('gadgets'), near: 'gadgetId', far: 'id' },
              where: [
                { property: 'userId', operator: 'eq' },
                { property: 'color', operator: 'in', count: 2 },
              ],
            },
          ],
        },
        { operator: 'none' },
        { property: 'quantity', operator: 'gte' },
      ],
    };
    const { sql, slots } = compileSelect(shape, table, postgres);
    expect(sql).toContain(
      ' WHERE "resource"."name" = $1 AND EXISTS (SELECT 1 FROM "gizmos" "related_1"' +
        ' WHERE "related_1"."widgetId" = "resource"."id" AND EXISTS (SELECT 1 FROM "gadgets" "related_2"' +
        ' WHERE "related_2"."id" = "related_1"."gadgetId" AND "related_2"."userId" = $2' +
        ' AND "related_2"."color" IN ($3, $4))) AND 1 = 0 AND "resource"."quantity" >= $5',
    );
    expect(slots).toEqual([0, 1, 2, 3, 4]);
  });

  it('binds limit and offset last and can select ids only', () => {
    const order = [key('id', 'ASC')];
    const { sql, slots } = compileSelect(
      { where: [], order, limit: true, offset: true, idsOnly: true },
      table,
      postgres,
    );
    expect(sql).toBe(
      'SELECT "resource"."id" FROM "widgets" "resource" ORDER BY "resource"."id" ASC LIMIT $1 OFFSET $2',
    );
    expect(slots).toEqual([0, 1]);
  });
});

describe('shapeKey', () => {
  it('tells apart shapes whose SQL differs, and only those', () => {
    const base: SelectShape = { where: [{ property: 'kind', operator: 'in', count: 2 }] };
    expect(shapeKey(base)).toBe(
      shapeKey({ where: [{ property: 'kind', operator: 'in', count: 2 }] }),
    );
    expect(shapeKey(base)).not.toBe(
      shapeKey({ where: [{ property: 'kind', operator: 'in', count: 3 }] }),
    );
    expect(shapeKey({ where: [{ property: 'a', operator: 'null', value: true }] })).not.toBe(
      shapeKey({ where: [{ property: 'a', operator: 'null', value: false }] }),
    );
    expect(shapeKey({ where: [], lock: true })).not.toBe(shapeKey({ where: [] }));
  });
});
