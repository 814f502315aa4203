import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

interface Widget {
  id: string;
  name: string;
  quantity: number;
  weight_kg: number | null;
  description: string | null;
  [member: string]: unknown;
}

// SPEC 1.6 on collections and to-many paths: filter, order, keyset cursor pagination.
describe('collections', () => {
  let fixture: FixtureApp;
  let gadgetId: string;
  const http = () => request(fixture.http);
  const get = async (path: string) =>
    (await http().get(path).expect(200)).body as { data: Widget[]; cursor: string | null };
  const names = async (path: string) => (await get(path)).data.map((w) => w.name);
  const problems = async (path: string) =>
    (await http().get(path).expect(400)).body.error as string[];
  const create = async (data: Record<string, unknown>) =>
    (
      await http()
        .post('/widgets')
        .send({ data: { quantity: 1, ...data } })
        .expect(201)
    ).body.data as Widget;

  beforeAll(async () => {
    fixture = await startFixtureApp();
    gadgetId = (
      (
        await http()
          .post('/gadgets')
          .send({ data: { label: 'box' } })
          .expect(201)
      ).body.data as Widget
    ).id;
    // Created in this order, so the default order (created_at, id) is a, b, c, d, e.
    await create({
      name: 'a',
      quantity: 5,
      weight_kg: 1.5,
      description: 'Red Apple',
      released_on: '2024-01-10',
      active: true,
      gadget_id: gadgetId,
    });
    await create({
      name: 'b',
      quantity: 3,
      weight_kg: null,
      description: null,
      released_on: '2024-02-10',
      kind: 'large',
    });
    await create({
      name: 'c',
      quantity: 5,
      weight_kg: 0.5,
      description: 'green apple 100%',
      released_on: null,
      gadget_id: gadgetId,
    });
    await create({
      name: 'd',
      quantity: 9,
      weight_kg: 2,
      description: 'Plum_1',
      inspected_at: '2024-05-01T10:00:00Z',
    });
    await create({
      name: 'e',
      quantity: 0,
      weight_kg: null,
      description: 'pear',
      inspected_at: '2024-05-01T09:00:00Z',
    });
  });
  afterAll(() => fixture.close());

  describe('filter', () => {
    it.each([
      ['filter[quantity]=5', ['a', 'c']],
      ['filter[quantity][eq]=5', ['a', 'c']],
      ['filter[quantity][ne]=5', ['b', 'd', 'e']],
      ['filter[quantity][lt]=5', ['b', 'e']],
      ['filter[quantity][lte]=5', ['a', 'b', 'c', 'e']],
      ['filter[quantity][gt]=5', ['d']],
      ['filter[quantity][gte]=5', ['a', 'c', 'd']],
      ['filter[quantity][in]=0,9', ['d', 'e']],
      ['filter[description][contains]=APPLE', ['a', 'c']],
      ['filter[description][contains]=100%25', ['c']],
      ['filter[description][contains]=_', ['d']],
      ['filter[weight_kg][null]=true', ['b', 'e']],
      ['filter[weight_kg][null]=false', ['a', 'c', 'd']],
      ['filter[weight_kg][ne]=1.5', ['b', 'c', 'd', 'e']],
      ['filter[weight_kg][gte]=1.5', ['a', 'd']],
      ['filter[active]=true', ['a']],
      ['filter[kind]=large', ['b']],
      ['filter[released_on][lt]=2024-02-01', ['a']],
      ['filter[inspected_at][gt]=2024-05-01T09:30:00Z', ['d']],
      ['filter[quantity]=5&filter[description][contains]=green', ['c']],
      ['filter[quantity][gte]=3&filter[quantity][lt]=9', ['a', 'b', 'c']],
      ['filter[name][in]=a,e,zzz', ['a', 'e']],
    ])('%s', async (query, expected) => {
      expect(await names(`/widgets?${query}`)).toEqual(expected);
    });

    it('filters by id and by a to-one id', async () => {
      const all = (await get('/widgets')).data;
      expect(await names(`/widgets?filter[id]=${all[1].id}`)).toEqual(['b']);
      expect(await names(`/widgets?filter[gadget_id]=${gadgetId}`)).toEqual(['a', 'c']);
    });

    it.each([
      ['filter[quantity]=five', 'filter[quantity] must be an integer'],
      [
        'filter[quantity][in]=1,x',
        'filter[quantity][in] must be a comma-separated list of an integer values',
      ],
      ['filter[weight_kg]=heavy', 'filter[weight_kg] must be a number'],
      ['filter[active]=yes', 'filter[active] must be true or false'],
      ['filter[released_on]=2024-02-30', 'filter[released_on] must be a date (YYYY-MM-DD)'],
      [
        'filter[inspected_at]=2024-05-01',
        'filter[inspected_at] must be a UTC time (YYYY-MM-DDTHH:MM:SSZ)',
      ],
      ['filter[kind]=huge', 'filter[kind] must be one of small, large'],
      ['filter[weight_kg][null]=maybe', 'filter[weight_kg][null] must be true or false'],
      ['filter[nope]=1', 'filter[nope]: nope is not an attribute of widgets'],
      ['filter[secret]=x', 'filter[secret]: secret is write-only'],
      [
        'filter[receipt]=x',
        'filter[receipt]: receipt is not stored, so it cannot be filtered or ordered',
      ],
      [
        'filter[quantity][like]=1',
        'filter[quantity][like]: unknown operator like; use one of eq, ne, lt, lte, gt, gte, in, contains, null',
      ],
      [
        'filter[quantity][contains]=1',
        'filter[quantity][contains]: operator contains does not apply to integer attributes',
      ],
      [
        'filter[active][gt]=true',
        'filter[active][gt]: operator gt does not apply to boolean attributes',
      ],
      ['filter=1', 'query parameter filter is not allowed here'],
      [
        'filter[a][b][c]=1',
        'filter[a][b][c] is not a filter; use filter[attribute] or filter[attribute][operator]',
      ],
    ])('%s is 400', async (query, problem) => {
      expect(await problems(`/widgets?${query}`)).toEqual([problem]);
    });

    it('reports every bad parameter at once', async () => {
      expect(await problems('/widgets?filter[quantity]=x&order=nope&limit=0&extra=1')).toEqual([
        'query parameter extra is not allowed here',
        'filter[quantity] must be an integer',
        'order: nope is not an attribute of widgets',
        'limit must be an integer from 1 to 100',
      ]);
    });

    it('on a single resource, a filter that does not match is 404', async () => {
      const a = (await get('/widgets?filter[name]=a')).data[0];
      await http().get(`/widgets/${a.id}?filter[quantity]=5`).expect(200);
      const { body } = await http().get(`/widgets/${a.id}?filter[quantity]=6`).expect(404);
      expect(body).toEqual({ error: [`no widgets with id ${a.id} matching the filter`] });
      expect(await problems(`/widgets/${a.id}?order=name`)).toEqual([
        'query parameter order is not allowed here',
      ]);
    });
  });

  describe('order', () => {
    it.each([
      ['order=name', ['a', 'b', 'c', 'd', 'e']],
      ['order=-name', ['e', 'd', 'c', 'b', 'a']],
      ['order=-quantity,name', ['d', 'a', 'c', 'b', 'e']],
      ['order=-quantity,-name', ['d', 'c', 'a', 'b', 'e']],
      // Nulls are the smallest value on both engines: first ascending, last descending.
      ['order=weight_kg,name', ['b', 'e', 'c', 'a', 'd']],
      ['order=-weight_kg,name', ['d', 'a', 'c', 'b', 'e']],
      ['order=released_on,-name', ['e', 'd', 'c', 'a', 'b']],
    ])('%s', async (query, expected) => {
      expect(await names(`/widgets?${query}`)).toEqual(expected);
    });

    it('breaks ties by id, in the direction of the last key', async () => {
      const ids = (await get('/widgets?filter[quantity]=5')).data.map((w) => w.id).sort();
      expect(
        (await get('/widgets?filter[quantity]=5&order=quantity')).data.map((w) => w.id),
      ).toEqual(ids);
      expect(
        (await get('/widgets?filter[quantity]=5&order=-quantity')).data.map((w) => w.id),
      ).toEqual([...ids].reverse());
    });

    it.each([
      ['order=nope', 'order: nope is not an attribute of widgets'],
      ['order=secret', 'order: secret is write-only'],
      ['order=name,-name', 'order: name appears more than once'],
      ['order=', 'order:  is not an attribute of widgets'],
    ])('%s is 400', async (query, problem) => {
      expect(await problems(`/widgets?${query}`)).toEqual([problem]);
    });
  });

  describe('cursor pagination', () => {
    const walk = async (path: string, between?: (page: number) => Promise<void>) => {
      const seen: string[] = [];
      let next: string | null = path;
      for (let page = 0; next !== null; page += 1) {
        const body = await get(next);
        seen.push(...body.data.map((w) => w.name));
        if (between) await between(page);
        next =
          body.cursor === null
            ? null
            : `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(body.cursor)}`;
      }
      return seen;
    };

    it('pages through every order with limit 2, ending in a null cursor', async () => {
      for (const order of [
        '',
        '&order=-quantity,name',
        '&order=weight_kg',
        '&order=-weight_kg,-name',
        '&order=released_on',
      ]) {
        const all = await names(`/widgets?limit=100${order}`);
        expect(await walk(`/widgets?limit=2${order}`)).toEqual(all);
      }
    });

    it('an exactly full last page has a null cursor', async () => {
      const first = await get('/widgets?limit=5');
      expect(first.data).toHaveLength(5);
      expect(first.cursor).toBeNull();
      const partial = await get('/widgets?limit=4');
      expect(partial.cursor).toEqual(expect.any(String));
    });

    it('never repeats or skips a row that existed throughout, with inserts and deletes between pages', async () => {
      const walkers = await Promise.all(
        ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map((name) => create({ name, quantity: 50 })),
      );
      const path = '/widgets?filter[quantity][gte]=50&order=name&limit=2';
      const seen = await walk(path, async (page) => {
        if (page === 0) {
          await http().delete(`/widgets/${walkers[3].id}`).expect(200); // w4, not yet seen
          await create({ name: 'w0', quantity: 60 }); // sorts before the cursor: not seen
          await create({ name: 'w55', quantity: 60 }); // sorts after the cursor: seen
        }
      });
      expect(seen).toEqual(['w1', 'w2', 'w3', 'w5', 'w55', 'w6']);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('rejects a tampered cursor', async () => {
      const { cursor } = await get('/widgets?limit=1');
      const [payload, signature] = cursor!.split('.');
      const forged = Buffer.from(
        JSON.stringify({
          k: ['1970-01-01T00:00:00.000Z', ''],
          b: JSON.parse(Buffer.from(payload, 'base64url').toString()).b,
        }),
      ).toString('base64url');
      for (const bad of [
        `${forged}.${signature}`,
        `${payload}.${signature.slice(1)}x`,
        'garbage',
        `${payload}`,
      ]) {
        expect(await problems(`/widgets?limit=1&cursor=${encodeURIComponent(bad)}`)).toEqual([
          'cursor is not a cursor this service issued',
        ]);
      }
    });

    it('rejects a cursor reused with another filter or order', async () => {
      const { cursor } = await get('/widgets?limit=1&filter[quantity][gte]=1');
      const message = [
        'cursor belongs to another collection, caller, filter or order; start again without it',
      ];
      expect(await problems(`/widgets?limit=1&cursor=${encodeURIComponent(cursor!)}`)).toEqual(
        message,
      );
      expect(
        await problems(
          `/widgets?limit=1&filter[quantity][gte]=2&cursor=${encodeURIComponent(cursor!)}`,
        ),
      ).toEqual(message);
      expect(
        await problems(
          `/widgets?limit=1&filter[quantity][gte]=1&order=name&cursor=${encodeURIComponent(cursor!)}`,
        ),
      ).toEqual(message);
      // The page size may change between pages.
      await http()
        .get(`/widgets?limit=3&filter[quantity][gte]=1&cursor=${encodeURIComponent(cursor!)}`)
        .expect(200);
    });

    it('rejects a cursor taken to another collection or shown by another caller', async () => {
      const { cursor } = await get('/widgets?limit=1');
      const message = [
        'cursor belongs to another collection, caller, filter or order; start again without it',
      ];
      const query = `limit=1&cursor=${encodeURIComponent(cursor!)}`;
      expect(await problems(`/gadgets/${gadgetId}/widgets?${query}`)).toEqual(message);
      expect(await problems(`/sketches?${query}`)).toEqual(message);
      const asAdmin = await http()
        .get(`/widgets?${query}`)
        .set('Authorization', `Bearer ${FIXTURE_TOKENS.admin}`)
        .expect(400);
      expect(asAdmin.body.error).toEqual(message);
      await http().get(`/widgets?${query}`).expect(200);
    });

    it('limit defaults to 25 and must be 1 to 100', async () => {
      await Promise.all(
        Array.from({ length: 25 }, (_, i) => create({ name: `bulk${i}`, quantity: 70 })),
      );
      const page = await get('/widgets?filter[quantity]=70');
      expect(page.data).toHaveLength(25);
      expect(page.cursor).toBeNull();
      expect((await get('/widgets')).cursor).toEqual(expect.any(String));
      await http().get('/widgets?limit=100').expect(200);
      for (const limit of ['0', '101', '-1', '1.5', 'ten']) {
        expect(await problems(`/widgets?limit=${limit}`)).toEqual([
          'limit must be an integer from 1 to 100',
        ]);
      }
    });

    it('pages a to-many relationship path, filtered and ordered', async () => {
      const path = `/gadgets/${gadgetId}/widgets`;
      expect(await names(`${path}?order=-name`)).toEqual(['c', 'a']);
      expect(await walk(`${path}?limit=1`)).toEqual(['a', 'c']);
      expect(await names(`${path}?filter[quantity][gt]=100`)).toEqual([]);
      expect(await problems(`${path}?filter[label]=box`)).toEqual([
        'filter[label]: label is not an attribute of widgets',
      ]);
    });
  });
});

describe('polymorphic references', () => {
  let fixture: FixtureApp;
  beforeAll(async () => {
    fixture = await startFixtureApp();
  });
  afterAll(() => fixture.close());

  it('are {type, id} on the wire and filter as subject.type and subject.id', async () => {
    const http = () => request(fixture.http);
    const widget = (
      await http()
        .post('/widgets')
        .send({ data: { name: 'p', quantity: 1 } })
        .expect(201)
    ).body.data;
    await http()
      .post('/widgets')
      .send({ data: { name: 'q', quantity: 1 } })
      .expect(201);
    const all = (await http().get('/notes').expect(200)).body.data;
    expect(all).toHaveLength(2);
    expect(all[0]).toEqual({
      type: 'notes',
      id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      text: 'made p',
      subject: { type: 'widgets', id: widget.id },
    });
    const mine = (
      await http()
        .get(`/notes?filter[subject.type]=widgets&filter[subject.id]=${widget.id}`)
        .expect(200)
    ).body;
    expect((mine.data as { text: string }[]).map((note) => note.text)).toEqual(['made p']);
    expect((await http().get('/notes?filter[subject.type]=gadgets').expect(200)).body.data).toEqual(
      [],
    );
    expect((await http().get('/notes?filter[subject.kind]=x').expect(400)).body.error).toEqual([
      'filter[subject.kind]: subject.kind is not an attribute of notes',
    ]);
    await http()
      .post('/notes')
      .send({ data: { text: 'x' } })
      .expect(405);
  });
});

describe('offset and page pagination styles', () => {
  it.each([
    ['offset', '?offset=1&limit=2', '?page=2'],
    ['page', '?page=2&per_page=2', '?offset=1'],
  ] as const)(
    '%s style reads its own parameters and answers {data} only',
    async (style, query, foreign) => {
      const fixture = await startFixtureApp({ pagination: style });
      try {
        for (const label of ['p1', 'p2', 'p3', 'p4']) {
          await request(fixture.http).post('/gadgets').send({ data: { label } }).expect(201);
        }
        const { body } = await request(fixture.http)
          .get(`/gadgets${query}&order=label`)
          .expect(200);
        expect(Object.keys(body)).toEqual(['data']);
        const expected = style === 'offset' ? ['p2', 'p3'] : ['p3', 'p4'];
        expect((body.data as { label: string }[]).map((g) => g.label)).toEqual(expected);
        await request(fixture.http).get(`/gadgets${foreign}`).expect(400);
        await request(fixture.http).get('/gadgets?cursor=x').expect(400);
      } finally {
        await fixture.close();
      }
    },
  );
});
