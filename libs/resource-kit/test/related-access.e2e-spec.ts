import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

type Row = { id: string } & Record<string, unknown>;

// SPEC 1.15 in the kit: stamps are owned through their badge (`owner: 'badgeId.holderId'`),
// and filters reach through relationships to rows the caller may read.
describe('access through relationships', () => {
  let fixture: FixtureApp;
  const as = (token: string) => ({
    post: (path: string, data: object) =>
      request(fixture.http).post(path).set('Authorization', `Bearer ${token}`).send({ data }),
    get: (path: string) => request(fixture.http).get(path).set('Authorization', `Bearer ${token}`),
  });
  const customer = as(FIXTURE_TOKENS.customer);
  const other = as(FIXTURE_TOKENS.otherCustomer);
  const admin = as(FIXTURE_TOKENS.admin);
  const ids = (body: { data: Row[] }) => body.data.map((row) => row.id).sort();
  let mine: { badge: Row; stamp: Row };
  let theirs: { badge: Row; stamp: Row };

  const stamped = async (who: typeof customer) => {
    const badge = (await who.post('/badges', {}).expect(201)).body.data as Row;
    const stamp = (await who.post('/stamps', { badge_id: badge.id }).expect(201)).body.data as Row;
    return { badge, stamp };
  };

  beforeAll(async () => {
    fixture = await startFixtureApp();
    mine = await stamped(customer);
    theirs = await stamped(other);
  });
  afterAll(() => fixture.close());

  describe('ownership through a parent', () => {
    it("hides another holder's stamps by id, in lists, filters and relationship paths", async () => {
      await customer.get(`/stamps/${theirs.stamp.id}`).expect(404);
      await customer.get(`/stamps/${mine.stamp.id}`).expect(200);
      expect(ids((await customer.get('/stamps').expect(200)).body)).toEqual([mine.stamp.id]);
      const filtered = await customer.get(`/stamps?filter[badge_id]=${theirs.badge.id}`);
      expect(filtered.body.data).toEqual([]);
      await customer.get(`/badges/${theirs.badge.id}/stamps`).expect(404);
      await admin.get(`/stamps/${theirs.stamp.id}`).expect(200);
    });

    it("refuses another holder's stamp or badge as a reference (400), and changes nothing", async () => {
      const before = (await admin.get('/stamps').expect(200)).body.data.length;
      const { body } = await customer
        .post('/stamps', { badge_id: theirs.badge.id, follows_id: theirs.stamp.id })
        .expect(400);
      expect(body.error).toEqual([
        'data.badge_id refers to no badges resource you may write',
        'data.follows_id refers to no stamps resource',
      ]);
      expect((await admin.get('/stamps').expect(200)).body.data).toHaveLength(before);
      const follows = { badge_id: mine.badge.id, follows_id: mine.stamp.id };
      await customer.post('/stamps', follows).expect(201);
    });
  });

  describe('a parent public to read', () => {
    const patch = (token: string, path: string, data: object) =>
      request(fixture.http).patch(path).set('Authorization', `Bearer ${token}`).send({ data });

    it('is written by its author only, and takes children from its author only (400 naming it)', async () => {
      const board = (await customer.post('/boards', { title: 'Mine' }).expect(201)).body
        .data as Row;
      await request(fixture.http).get(`/boards/${board.id}`).expect(200);
      await other.get(`/boards/${board.id}`).expect(200);
      await patch(FIXTURE_TOKENS.otherCustomer, `/boards/${board.id}`, { title: 'x' }).expect(404);
      const refused = await other.post('/pins', { board_id: board.id }).expect(400);
      expect(refused.body.error).toEqual([
        'data.board_id refers to no boards resource you may write',
      ]);
      expect((await admin.get(`/pins?filter[board_id]=${board.id}`).expect(200)).body.data).toEqual(
        [],
      );
      const pin = (await customer.post('/pins', { board_id: board.id }).expect(201)).body
        .data as Row;
      await customer.get(`/pins/${pin.id}`).expect(200);
      // Nor moved to another's board afterwards.
      const theirBoard = (await other.post('/boards', { title: 'Theirs' }).expect(201)).body.data;
      const moved = await patch(FIXTURE_TOKENS.customer, `/pins/${pin.id}`, {
        board_id: theirBoard.id,
      });
      expect(moved.status).toBe(400);
      await admin.post('/pins', { board_id: board.id }).expect(201);
    });
  });

  describe('filters through relationships', () => {
    it('match a parent once, through a to-many, over the rows the caller may read', async () => {
      await customer.post('/stamps', { badge_id: mine.badge.id }).expect(201);
      const path = '/badges?filter[stamps.follows_id][null]=true';
      expect(ids((await customer.get(path).expect(200)).body)).toEqual([mine.badge.id]);
      expect(ids((await admin.get(path).expect(200)).body)).toEqual(
        [mine.badge.id, theirs.badge.id].sort(),
      );
      const byStamp = `/badges?filter[stamps.id]=${theirs.stamp.id}`;
      expect((await customer.get(byStamp).expect(200)).body.data).toEqual([]);
    });

    it('go through a to-one and then a to-many (two hops)', async () => {
      const path = `/stamps?filter[badge.stamps.id]=${mine.stamp.id}`;
      const found = (await customer.get(path).expect(200)).body as { data: Row[] };
      expect(found.data.length).toBeGreaterThanOrEqual(2);
      expect(found.data.every((stamp) => stamp.badge_id === mine.badge.id)).toBe(true);
    });

    it('are 400 naming the parameter: a third hop, an unknown member, a bad value', async () => {
      const { body } = await customer
        .get(
          '/stamps?filter[badge.stamps.badge.id]=x&filter[badge.colour]=red&filter[badge.created_at][gt]=soon&filter[badge.hand_to]=x',
        )
        .expect(400);
      expect(body.error).toEqual([
        'filter[badge.stamps.badge.id]: a filter goes through at most 2 relationships',
        'filter[badge.colour]: colour is not an attribute of badges',
        'filter[badge.created_at][gt] must be a UTC time (YYYY-MM-DDTHH:MM:SSZ)',
        'filter[badge.hand_to]: hand_to is write-only',
      ]);
    });
  });
});
