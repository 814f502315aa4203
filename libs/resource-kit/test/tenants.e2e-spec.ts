import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

type Row = { id: string } & Record<string, unknown>;

// SPEC 1.15 in the kit: folders and documents are tenant-scoped. The same user id calls
// from tenants a and b; the operator's static token has no tenant (cross-tenant).
describe('tenants', () => {
  let fixture: FixtureApp;
  const as = (token: string) => ({
    post: (path: string, data: object, key?: string) => {
      const test = request(fixture.http).post(path).set('Authorization', `Bearer ${token}`);
      return (key ? test.set('Idempotency-Key', key) : test).send({ data });
    },
    get: (path: string) => request(fixture.http).get(path).set('Authorization', `Bearer ${token}`),
    patch: (path: string, data: object) =>
      request(fixture.http).patch(path).set('Authorization', `Bearer ${token}`).send({ data }),
    delete: (path: string) =>
      request(fixture.http).delete(path).set('Authorization', `Bearer ${token}`),
  });
  const a = as(FIXTURE_TOKENS.tenantA);
  const b = as(FIXTURE_TOKENS.tenantB);
  const operator = as(FIXTURE_TOKENS.operator);
  const adminOfA = as(FIXTURE_TOKENS.tenantAdminA);
  const untenanted = as(FIXTURE_TOKENS.customer);
  const ids = (rows: Row[]) => rows.map((row) => row.id).sort();
  let folderA: Row;
  let folderB: Row;
  let documentB: Row;

  beforeAll(async () => {
    fixture = await startFixtureApp();
    folderA = (await a.post('/folders', { code: 'inbox' }).expect(201)).body.data as Row;
    folderB = (await b.post('/folders', { code: 'inbox' }).expect(201)).body.data as Row;
    documentB = (await b.post('/documents', { folder_id: folderB.id, title: 'Plan' }).expect(201))
      .body.data as Row;
  });
  afterAll(() => fixture.close());

  it("sets the creator's tenant, and keeps a unique value unique within a tenant only", async () => {
    expect(folderA.tenant_id).toBe('a');
    expect(folderB.tenant_id).toBe('b');
    const taken = await a.post('/folders', { code: 'inbox' }).expect(409);
    expect(taken.body.error).toEqual(['a resource with this unique value already exists']);
    const given = await a.post('/folders', { code: 'other', tenant_id: 'b' }).expect(400);
    expect(given.body.error).toEqual(['data.tenant_id is read-only']);
  });

  it("answers 404 for another tenant's row by id and relationship path, and hides it from lists and filters", async () => {
    await a.get(`/folders/${folderB.id}`).expect(404);
    await a.get(`/folders/${folderB.id}/documents`).expect(404);
    await a.get(`/documents/${documentB.id}/folder`).expect(404);
    expect(ids((await a.get('/folders').expect(200)).body.data)).toEqual([folderA.id]);
    const byCode = await a.get('/folders?filter[code]=inbox').expect(200);
    expect(ids(byCode.body.data)).toEqual([folderA.id]);
    const byDocument = await a.get('/folders?filter[documents.title]=Plan').expect(200);
    expect(byDocument.body.data).toEqual([]);
    const inB = await b.get('/folders?filter[documents.title]=Plan').expect(200);
    expect(ids(inB.body.data)).toEqual([folderB.id]);
  });

  it("refuses another tenant's row as a reference (400)", async () => {
    const { body } = await a.post('/documents', { folder_id: folderB.id, title: 'x' }).expect(400);
    expect(body.error).toEqual(['data.folder_id refers to no folders resource']);
  });

  it("refuses one tenant's cursor in the other", async () => {
    await a.post('/folders', { code: 'archive' }).expect(201);
    const page = await a.get('/folders?limit=1').expect(200);
    expect(page.body.cursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(page.body.cursor as string);
    await a.get(`/folders?limit=1&cursor=${cursor}`).expect(200);
    await b.get(`/folders?limit=1&cursor=${cursor}`).expect(400);
  });

  it("never replays one tenant's Idempotency-Key answer in the other", async () => {
    const first = await a.post('/folders', { code: 'keyed' }, 'same-key').expect(201);
    const other = await b.post('/folders', { code: 'keyed' }, 'same-key').expect(201);
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(other.body.data.tenant_id).toBe('b');
    const again = await a.post('/folders', { code: 'keyed' }, 'same-key').expect(201);
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it("records each write's audit entry in the written row's tenant, and others in none", async () => {
    const gadget = (await untenanted.post('/gadgets', { label: 'Lamp' }).expect(201)).body
      .data as Row;
    const subjects = async (who: typeof a) =>
      ((await who.get('/audit_entries?limit=100').expect(200)).body.data as Row[]).map(
        (entry) => entry.subject_id,
      );
    const [ofA, ofB, ofNone, ofAll] = await Promise.all([a, b, untenanted, operator].map(subjects));
    expect(ofA).toEqual(expect.arrayContaining([folderA.id, gadget.id]));
    expect(ofA).not.toContain(folderB.id);
    expect(ofB).toEqual(expect.arrayContaining([folderB.id, documentB.id, gadget.id]));
    expect(ofB).not.toContain(folderA.id);
    expect(ofNone).toContain(gadget.id);
    expect(ofNone).not.toContain(folderA.id);
    expect(ofNone).not.toContain(folderB.id);
    expect(ofAll).toEqual(expect.arrayContaining([folderA.id, folderB.id, gadget.id]));
    // The kit's column, not a member: the entries read alike in every tenant.
    const entry = (await a.get(`/audit_entries?filter[subject_id]=${folderA.id}`).expect(200)).body
      .data[0] as Row;
    expect(entry).not.toHaveProperty('tenant_id');
    await a.get('/audit_entries?filter[tenant_id]=a').expect(400);
  });

  it('lets a cross-tenant operator see every tenant, and a caller without one none', async () => {
    const all = ids((await operator.get('/folders').expect(200)).body.data);
    expect(all).toEqual(expect.arrayContaining([folderA.id, folderB.id]));
    await operator.get(`/documents/${documentB.id}`).expect(200);
    expect((await untenanted.get('/folders').expect(200)).body.data).toEqual([]);
    await untenanted.get(`/folders/${folderA.id}`).expect(404);
    const refused = await untenanted.post('/folders', { code: 'none' }).expect(403);
    expect(refused.body.error).toEqual(['creating folders needs a caller of a tenant']);
  });

  it('lets a cross-tenant operator name the tenant of what it creates, and no one else another', async () => {
    const named = await operator.post('/folders', { code: 'shared', tenant_id: 'a' }).expect(201);
    expect(named.body.data.tenant_id).toBe('a');
    await a.get(`/folders/${named.body.data.id}`).expect(200);
    await b.get(`/folders/${named.body.data.id}`).expect(404);
    const unnamed = await operator.post('/folders', { code: 'nowhere' }).expect(400);
    expect(unnamed.body.error).toEqual([
      'data.tenant_id is required: a cross-tenant operator names the tenant',
    ]);
    const elsewhere = await adminOfA
      .post('/folders', { code: 'b-too', tenant_id: 'b' })
      .expect(400);
    expect(elsewhere.body.error).toEqual(["data.tenant_id must be the caller's own tenant (a)"]);
    const own = await adminOfA.post('/folders', { code: 'a-too', tenant_id: 'a' }).expect(201);
    expect(own.body.data.tenant_id).toBe('a');
    const codes = (rows: Row[]) => rows.map((row) => row.code);
    expect(codes((await b.get('/folders?limit=100').expect(200)).body.data)).not.toContain('b-too');
  });

  it("never lets a tenant's caller read, change or delete a row of no tenant or of another tenant", async () => {
    const ofNone = (await untenanted.post('/channels', { address: 'none' }).expect(201)).body
      .data as Row;
    const ofA = (await a.post('/channels', { address: 'a' }).expect(201)).body.data as Row;
    for (const path of [`/channels/${ofNone.id}`, `/channels/${ofA.id}`]) {
      await b.get(path).expect(404);
      await b.patch(path, { address: 'taken' }).expect(404);
      await b.delete(path).expect(404);
    }
    await a.patch(`/channels/${ofNone.id}`, { address: 'taken' }).expect(404);
    expect(ids((await b.get('/channels').expect(200)).body.data)).toEqual([]);
    expect(ids((await a.get('/channels').expect(200)).body.data)).toEqual([ofA.id]);
    expect(ids((await untenanted.get('/channels').expect(200)).body.data)).toEqual([ofNone.id]);
    // Nothing changed: the rows read as they were written.
    expect((await untenanted.get(`/channels/${ofNone.id}`).expect(200)).body.data).toEqual(ofNone);
    expect((await a.get(`/channels/${ofA.id}`).expect(200)).body.data).toEqual(ofA);
    await a.patch(`/channels/${ofA.id}`, { address: 'a2' }).expect(200);
    await operator.patch(`/channels/${ofNone.id}`, { address: 'moved' }).expect(200);
    await operator.delete(`/channels/${ofA.id}`).expect(200);
  });
});
