import type { Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

// The wire conventions (SPEC 1.1 to 1.5, 1.8) as the kit enforces them for any resource.
describe('resource-kit conventions', () => {
  let fixture: FixtureApp;
  const http = () => request(fixture.http);
  const createGadget = async (label = 'g') =>
    (await http().post('/gadgets').send({ data: { label } }).expect(201)).body.data as {
      id: string;
    };
  const createWidget = (data: Record<string, unknown> = {}) =>
    http()
      .post('/widgets')
      .send({ data: { name: 'w', quantity: 1, ...data } });

  beforeAll(async () => {
    fixture = await startFixtureApp();
  });
  afterAll(() => fixture.close());

  describe('paths and verbs', () => {
    it('POST creates (201) and answers the whole resource with create-only outputs', async () => {
      const response = await createWidget({ name: 'alpha', secret: 'open-sesame' }).expect(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toEqual({
        data: {
          type: 'widgets',
          id: expect.any(String),
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
          updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
          name: 'alpha',
          description: null,
          quantity: 1,
          weight_kg: null,
          active: false,
          released_on: null,
          inspected_at: null,
          kind: 'small',
          name_length: 5,
          receipt: 'receipt-for-alpha',
          gadget_id: null,
        },
      });
    });

    it('GET one shows every declared attribute, never write-only or create-only members', async () => {
      const { id } = (await createWidget({ secret: 'open-sesame' }).expect(201)).body.data;
      const { body } = await http().get(`/widgets/${id}`).expect(200);
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).not.toHaveProperty('secret');
      expect(body.data).not.toHaveProperty('receipt');
      expect(body.data).toMatchObject({ type: 'widgets', id, name: 'w', description: null });
    });

    it('PATCH changes only the given members and answers the whole resource', async () => {
      const created = (await createWidget({ description: 'old', quantity: 4 }).expect(201)).body
        .data;
      const { body } = await http()
        .patch(`/widgets/${created.id}`)
        .send({ data: { type: 'widgets', id: created.id, name: 'renamed', description: null } })
        .expect(200);
      expect(body.data).toMatchObject({
        name: 'renamed',
        description: null,
        quantity: 4,
        name_length: 7,
      });
      expect(body.data).not.toHaveProperty('receipt');
    });

    it('DELETE answers the resource as it was, and it is gone', async () => {
      const created = (await createWidget({ name: 'doomed' }).expect(201)).body.data;
      const { body } = await http().delete(`/widgets/${created.id}`).expect(200);
      expect(body.data).toMatchObject({ id: created.id, name: 'doomed' });
      await http().get(`/widgets/${created.id}`).expect(404);
    });

    it('lists a collection with a cursor', async () => {
      const { body } = await http().get('/gadgets').expect(200);
      expect(Object.keys(body).sort()).toEqual(['cursor', 'data']);
      expect(Array.isArray(body.data)).toBe(true);
    });

    it.each([
      ['PUT', '/widgets', 'GET, POST'],
      ['PUT', '/widgets/x', 'GET, PATCH, DELETE'],
      ['OPTIONS', '/widgets/x', 'GET, PATCH, DELETE'],
      ['POST', '/widgets/x', 'GET, PATCH, DELETE'],
      ['DELETE', '/widgets', 'GET, POST'],
      ['PATCH', '/gadgets/x/widgets', 'GET'],
    ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
      const response = await http()[method.toLowerCase() as 'put'](path).expect(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.body).toEqual({
        error: [`${method} is not allowed here; allowed: ${allow}`],
      });
    });

    it('HEAD is 405 too: only GET, POST, PATCH and DELETE exist', async () => {
      const response = await http().head('/widgets').expect(405);
      expect(response.headers.allow).toBe('GET, POST');
    });

    // Enforced by the kit, whatever the app's Express settings: this app sets none.
    it.each([
      ['GET', '/Widgets'],
      ['POST', '/WIDGETS'],
      ['DELETE', '/widgetS/x'],
      ['GET', '/widgets/'],
      ['PATCH', '/widgets/x/'],
      ['GET', '/Widgets/x/gadget'],
    ])('%s %s (not the exact type, or a trailing slash) is 404', async (method, path) => {
      const response = await http()[method.toLowerCase() as 'get'](path).send({ data: {} });
      expect([response.status, response.body]).toEqual([404, { error: ['no such path'] }]);
    });

    it.each(['/nothing', '/widgets/x/y/z', '/widgets/x/unknown_relationship'])(
      'GET %s is 404 in the envelope',
      async (path) => {
        const { body } = await http().get(path).expect(404);
        expect(body).toEqual({ error: [expect.any(String)] });
      },
    );

    it('an unknown id is 404', async () => {
      const { body } = await http().get('/widgets/no-such-id').expect(404);
      expect(body).toEqual({ error: ['no widgets with id no-such-id'] });
      await http()
        .patch('/widgets/no-such-id')
        .send({ data: { name: 'x' } })
        .expect(404);
      await http().delete('/widgets/no-such-id').expect(404);
    });
  });

  describe('access levels', () => {
    it('an admin operation is 401 without a token, 403 for a customer, allowed for an admin', async () => {
      const gadget = await createGadget('guarded');
      const missing = await http().delete(`/gadgets/${gadget.id}`).expect(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer');
      expect(missing.body).toEqual({
        error: ['authentication required: send Authorization: Bearer <token>'],
      });
      const asCustomer = await http()
        .delete(`/gadgets/${gadget.id}`)
        .set('Authorization', `Bearer ${FIXTURE_TOKENS.customer}`)
        .expect(403);
      expect(asCustomer.body).toEqual({ error: ['this operation is for administrators'] });
      await http()
        .delete(`/gadgets/${gadget.id}`)
        .set('Authorization', `Bearer ${FIXTURE_TOKENS.admin}`)
        .expect(200);
    });

    it('a public operation ignores a bad token, and 405 comes before 401', async () => {
      await http().get('/gadgets').set('Authorization', 'Bearer nonsense').expect(200);
      await http().put('/gadgets/x').expect(405);
    });
  });

  describe('relationships', () => {
    it('to-one returns the target exactly as GET /{target}/{id} does', async () => {
      const gadget = await createGadget('parent');
      const widget = (await createWidget({ gadget_id: gadget.id }).expect(201)).body.data;
      const related = await http().get(`/widgets/${widget.id}/gadget`).expect(200);
      const direct = await http().get(`/gadgets/${gadget.id}`).expect(200);
      expect(related.body).toEqual(direct.body);
    });

    it('a delete the foreign key refuses is 409 naming the resource in the way, and deletes nothing', async () => {
      const gadget = await createGadget('pointed-at');
      const widget = (await createWidget({ gadget_id: gadget.id }).expect(201)).body.data;
      const { body } = await http()
        .delete(`/gadgets/${gadget.id}`)
        .set('Authorization', `Bearer ${FIXTURE_TOKENS.admin}`)
        .expect(409);
      expect(body).toEqual({ error: ['gadgets with widgets cannot be deleted'] });
      await http().get(`/gadgets/${gadget.id}`).expect(200);
      await http().delete(`/widgets/${widget.id}`).expect(200);
      await http()
        .delete(`/gadgets/${gadget.id}`)
        .set('Authorization', `Bearer ${FIXTURE_TOKENS.admin}`)
        .expect(200);
    });

    it('to-one without a target is {data: null}', async () => {
      const widget = (await createWidget().expect(201)).body.data;
      expect((await http().get(`/widgets/${widget.id}/gadget`).expect(200)).body).toEqual({
        data: null,
      });
    });

    it('to-many returns the target collection limited to the owner', async () => {
      const mine = await createGadget('mine');
      const other = await createGadget('other');
      const a = (await createWidget({ name: 'a', gadget_id: mine.id }).expect(201)).body.data;
      const b = (await createWidget({ name: 'b', gadget_id: mine.id }).expect(201)).body.data;
      await createWidget({ name: 'c', gadget_id: other.id }).expect(201);
      const { body } = await http().get(`/gadgets/${mine.id}/widgets`).expect(200);
      expect((body.data as { id: string }[]).map((w) => w.id)).toEqual([a.id, b.id]);
      expect(body.cursor).toBeNull();
    });

    it('an unknown owner is 404 on relationship paths', async () => {
      await http().get('/gadgets/no-such-id/widgets').expect(404);
    });
  });

  describe('input', () => {
    const problemsOf = async (
      data: unknown,
      method: 'post' | 'patch' = 'post',
      path = '/widgets',
    ) =>
      (
        await http()
          [method](path)
          .send(data as object)
          .expect(400)
      ).body.error as string[];

    it('reports every problem of a create at once', async () => {
      const problems = await problemsOf({
        data: {
          id: 'x',
          type: 'gadgets',
          name: 5,
          quantity: '3',
          nope: 1,
          created_at: 'x',
          kind: 'huge',
        },
      });
      expect(problems.sort()).toEqual(
        [
          'data.id must not be given; the service assigns ids',
          'data.type must be "widgets"',
          'data.nope is not an attribute of widgets',
          'data.created_at is read-only',
          'data.name must be a string',
          'data.quantity must be an integer',
          'data.kind must be one of: small, large',
        ].sort(),
      );
    });

    it('requires required members and rejects null where not nullable', async () => {
      expect(await problemsOf({ data: {} })).toEqual([
        'data.name is required',
        'data.quantity is required',
      ]);
      expect(await problemsOf({ data: { name: null, quantity: 1, active: null } })).toEqual([
        'data.name must not be null',
        'data.active must not be null',
      ]);
    });

    it.each([
      [{ name: 'x'.repeat(21) }, 'data.name must be at most 20 characters'],
      [{ name: 'a\u0000b' }, 'data.name must not contain U+0000'],
      [{ quantity: 100 }, 'data.quantity must be at most 99'],
      [{ quantity: -1 }, 'data.quantity must be at least 0'],
      [{ quantity: 1.5 }, 'data.quantity must be an integer'],
      [{ weight_kg: '2' }, 'data.weight_kg must be a number'],
      [{ active: 'true' }, 'data.active must be a boolean'],
      [{ released_on: '2023-02-30' }, 'data.released_on must be a date in the form YYYY-MM-DD'],
      [{ released_on: '2023-2-3' }, 'data.released_on must be a date in the form YYYY-MM-DD'],
      [
        { inspected_at: '2023-01-01T10:00:00+01:00' },
        'data.inspected_at must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ',
      ],
      [
        { inspected_at: '2023-01-01T10:00:00.5Z' },
        'data.inspected_at must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ',
      ],
      [
        { inspected_at: '2023-01-01T24:00:00Z' },
        'data.inspected_at must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ',
      ],
      [{ secret: 'short' }, 'data.secret must be at least 8 characters'],
      [{ receipt: 'r' }, 'data.receipt is read-only'],
      [{ gadget_id: 7 }, 'data.gadget_id must be a string'],
      [{ gadget_id: 'missing' }, 'data.gadget_id refers to no gadgets resource'],
    ])('rejects %j', async (member, problem) => {
      expect(await problemsOf({ data: { name: 'w', quantity: 1, ...member } })).toEqual([problem]);
    });

    it('accepts good values of every type and stores them exactly', async () => {
      const data = {
        name: 'full',
        description: 'd'.repeat(2000),
        quantity: 99,
        weight_kg: 2.5,
        active: true,
        released_on: '2024-02-29',
        inspected_at: '2024-03-01T23:59:59Z',
        kind: 'large',
      };
      const created = (await createWidget(data).expect(201)).body.data;
      expect(created).toMatchObject(data);
      expect((await http().get(`/widgets/${created.id}`).expect(200)).body.data).toMatchObject(
        data,
      );
    });

    it.each([
      [[1], 'the body must be a JSON object with a "data" member'],
      [{}, 'data is required'],
      [{ data: [] }, 'data must be an object'],
      [{ data: {}, meta: {} }, 'meta is not allowed at the top level; only "data" is'],
    ])('rejects the body %j', async (body, problem) => {
      expect(await problemsOf(body)).toContain(problem);
    });

    it('PATCH: create-only members, a foreign id and read-only members are 400', async () => {
      const created = (await createWidget().expect(201)).body.data;
      const problems = await problemsOf(
        { data: { id: 'other', kind: 'large', name_length: 3 } },
        'patch',
        `/widgets/${created.id}`,
      );
      expect(problems).toEqual([
        'data.id must equal the id in the path',
        'data.kind can be set only on create',
        'data.name_length is read-only',
      ]);
      expect((await http().get(`/widgets/${created.id}`)).body.data).toEqual({
        ...created,
        receipt: undefined,
      });
    });

    it('bad input changes nothing', async () => {
      const before = (await http().get('/widgets?limit=100').expect(200)).body.data.length;
      await http()
        .post('/widgets')
        .send({ data: { name: 'ok', quantity: 1, gadget_id: 'missing' } })
        .expect(400);
      expect((await http().get('/widgets?limit=100').expect(200)).body.data).toHaveLength(before);
    });

    it('malformed JSON is 400, another media type 415, a body over 1 MiB 413', async () => {
      const malformed = await http()
        .post('/widgets')
        .set('Content-Type', 'application/json')
        .send('{"data":')
        .expect(400);
      expect(malformed.body).toEqual({ error: ['the body is not valid JSON'] });
      const text = await http()
        .post('/widgets')
        .set('Content-Type', 'text/plain')
        .send('hello')
        .expect(415);
      expect(text.body).toEqual({ error: ['the body must be application/json'] });
      const huge = JSON.stringify({ data: { name: 'x', description: 'y'.repeat(1024 * 1024) } });
      const tooLarge = await http()
        .post('/widgets')
        .set('Content-Type', 'application/json')
        .send(huge)
        .expect(413);
      expect(tooLarge.body).toEqual({
        error: ['the body is larger than the limit of 1048576 bytes'],
      });
    });

    it('ignores a body on GET and DELETE', async () => {
      await http()
        .get('/widgets')
        .set('Content-Type', 'application/json')
        .send('{not json')
        .expect(200);
    });

    it('rejects keys that would reach the prototype', async () => {
      const problems = await problemsOf(
        JSON.parse('{"data":{"name":"w","quantity":1,"__proto__":{"x":1}}}'),
      );
      expect(problems).toEqual(['data.__proto__ is not an attribute of widgets']);
    });
  });

  describe('query parameters', () => {
    it.each([
      ['/widgets?foo=1', 'query parameter foo is not allowed here'],
      ['/widgets/x?limit=5', 'query parameter limit is not allowed here'],
      ['/widgets?limit=0', 'limit must be an integer from 1 to 100'],
      ['/widgets?limit=101', 'limit must be an integer from 1 to 100'],
      ['/widgets?limit=abc', 'limit must be an integer from 1 to 100'],
    ])('GET %s is 400', async (path, problem) => {
      expect((await http().get(path).expect(400)).body).toEqual({ error: [problem] });
    });
  });

  describe('requests the HTTP parser refuses', () => {
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = (fixture.app.getHttpServer() as Server).address() as AddressInfo;
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });

    it('answers a malformed request in the envelope', async () => {
      const answer = await raw('GET /widgets HTTP/1.1\r\nHost: x\r\nbroken header line\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/Content-Type: application\/json/);
      // Security headers, though no middleware ran.
      expect(answer).toMatch(/X-Content-Type-Options: nosniff\r\n/);
      expect(answer).toMatch(
        /Content-Security-Policy: default-src 'none';frame-ancestors 'none'\r\n/,
      );
      expect(answer).toMatch(/X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n/);
      expect(answer.endsWith('{"error":["the request is malformed"]}')).toBe(true);
    });

    it('answers oversized headers with 431 in the envelope', async () => {
      const answer = await raw(
        `GET /widgets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer.endsWith('{"error":["the request headers are too large"]}')).toBe(true);
    });
  });

  describe('output', () => {
    it('answers 500 with a generic message when a hook fails, and changes nothing', async () => {
      const response = await createWidget({ name: 'explode' }).expect(500);
      expect(response.body).toEqual({ error: ['internal server error'] });
      const { body } = await http().get('/widgets?limit=100').expect(200);
      const names = (body.data as { name: string }[]).map((w) => w.name);
      expect(names).not.toContain('explode');
    });

    it('answers 500 with nothing of an off-declaration response', async () => {
      const corrupt = (await createWidget({ name: 'corrupt', secret: 'leaked-secret' }).expect(201))
        .body.data;
      const response = await http().get(`/widgets/${corrupt.id}`).expect(500);
      expect(response.body).toEqual({ error: ['internal server error'] });
      expect(response.text).not.toMatch(/lots|2024-13-45|leaked|corrupt/);
    });
  });
});

describe('resource-kit options', () => {
  let fixture: FixtureApp;

  beforeAll(async () => {
    fixture = await startFixtureApp({ errorKey: 'errors', keyCasing: 'camelCase' });
  });
  afterAll(() => fixture.close());

  it('uses camelCase keys and the "errors" member when configured', async () => {
    const created = await request(fixture.http)
      .post('/widgets')
      .send({ data: { name: 'camel', quantity: 1, weightKg: 1.5 } })
      .expect(201);
    expect(created.body.data).toMatchObject({
      weightKg: 1.5,
      nameLength: 5,
      createdAt: expect.any(String),
    });
    const rejected = await request(fixture.http)
      .post('/widgets')
      .send({ data: { weight_kg: 1 } })
      .expect(400);
    expect(rejected.body.errors).toContain('data.weight_kg is not an attribute of widgets');
  });
});

describe('resource-kit options: validateOutput false', () => {
  let fixture: FixtureApp;

  beforeAll(async () => {
    fixture = await startFixtureApp({ validateOutput: false });
  });
  afterAll(() => fixture.close());

  it('sends responses unchecked, so an off-declaration one reaches the client', async () => {
    const corrupt = await request(fixture.http)
      .post('/widgets')
      .send({ data: { name: 'corrupt', quantity: 1 } })
      .expect(201);
    const response = await request(fixture.http)
      .get(`/widgets/${corrupt.body.data.id}`)
      .expect(200);
    expect(response.body.data).toMatchObject({ quantity: 'lots', released_on: '2024-13-45' });
  });
});
