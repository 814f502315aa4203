import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { FixtureApp, startFixtureApp } from './fixture/fixture-app';

// SPEC 1.9: a replaced resource's creation is deprecated; it still works and says so.
describe('a deprecated creation', () => {
  let fixture: FixtureApp;
  const http = () => request(fixture.http);
  const DEPRECATION = '@1793491200'; // 2026-11-01T00:00:00Z
  const SUNSET = 'Wed, 30 Jun 2027 00:00:00 GMT';

  beforeAll(async () => {
    fixture = await startFixtureApp();
  });
  afterAll(() => fixture.close());

  it('still creates, and answers Deprecation (RFC 9745) and Sunset (RFC 8594)', async () => {
    const created = await http()
      .post('/sketches')
      .send({ data: { title: 'first' } })
      .expect(201);
    expect(created.body.data).toMatchObject({ type: 'sketches', title: 'first' });
    expect(created.headers.deprecation).toBe(DEPRECATION);
    expect(created.headers.sunset).toBe(SUNSET);
  });

  it('says so on a replayed answer and on a refused body too', async () => {
    const send = () =>
      http()
        .post('/sketches')
        .set('Idempotency-Key', 'sketch-once')
        .send({ data: { title: 'again' } })
        .expect(201);
    await send();
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.deprecation).toBe(DEPRECATION);
    const refused = await http().post('/sketches').send({ data: {} }).expect(400);
    expect(refused.headers.deprecation).toBe(DEPRECATION);
  });

  it('leaves reads, updates and other resources untouched', async () => {
    const { id } = (
      await http()
        .post('/sketches')
        .send({ data: { title: 'kept' } })
        .expect(201)
    ).body.data as { id: string };
    for (const answer of [
      await http().get('/sketches').expect(200),
      await http().get(`/sketches/${id}`).expect(200),
      await http()
        .patch(`/sketches/${id}`)
        .send({ data: { title: 'still kept' } })
        .expect(200),
      await http()
        .post('/gadgets')
        .send({ data: { label: 'successor' } })
        .expect(201),
    ]) {
      expect(answer.headers.deprecation).toBeUndefined();
      expect(answer.headers.sunset).toBeUndefined();
    }
  });

  it('is a deprecated operation in the OpenAPI document, naming its successor', async () => {
    const { body } = await http().get('/openapi.json').expect(200);
    expect((await new Validator().validate(body)).errors ?? []).toEqual([]);
    const create = body.paths['/sketches'].post;
    expect(create.deprecated).toBe(true);
    expect(create.description).toContain('Use POST /gadgets instead');
    expect(create.description).toContain('2027-06-30');
    expect(body.paths['/sketches'].get.deprecated).toBeUndefined();
    expect(body.paths['/sketches/{id}'].patch.deprecated).toBeUndefined();
    expect(body.paths['/gadgets'].post.deprecated).toBeUndefined();
  });
});
