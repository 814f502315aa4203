import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import request from 'supertest';
import { FIXTURE_TOKENS, FixtureApp, startFixtureApp } from './fixture/fixture-app';

type Envelope = { data: Record<string, unknown> };

/** A serializer gone wrong: puts an administrators-only member into every answer. */
@Injectable()
class LeakingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const leak = context.switchToHttp().getRequest<Request>().headers['x-leak'] === 'on';
    return next
      .handle()
      .pipe(
        map((value: Envelope) =>
          leak ? { ...value, data: { ...value.data, staff_note: 'internal-only' } } : value,
        ),
      );
  }
}

// SPEC 1.16 in the kit: badges.staff_note is read and written by administrators only, and
// the output check runs on the caller's view.
describe('members only administrators read', () => {
  let fixture: FixtureApp;
  let badgeId: string;
  const as = (token: string) => ({
    get: (path: string) => request(fixture.http).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, data: object) =>
      request(fixture.http).post(path).set('Authorization', `Bearer ${token}`).send({ data }),
  });
  const customer = as(FIXTURE_TOKENS.customer);
  const otherCustomer = as(FIXTURE_TOKENS.otherCustomer);
  const admin = as(FIXTURE_TOKENS.admin);

  beforeAll(async () => {
    fixture = await startFixtureApp(
      {},
      { providers: [{ provide: APP_INTERCEPTOR, useClass: LeakingInterceptor }] },
    );
    badgeId = (await customer.post('/badges', {}).expect(201)).body.data.id as string;
  });
  afterAll(() => fixture.close());

  it('leaves the member out of a customer\u2019s answers, and shows it to administrators', async () => {
    const own = await customer.get(`/badges/${badgeId}`).expect(200);
    expect(own.body.data).not.toHaveProperty('staff_note');
    expect((await admin.get(`/badges/${badgeId}`).expect(200)).body.data.staff_note).toBeNull();
    const written = await customer.post('/badges', { staff_note: 'mine' }).expect(400);
    expect(written.body.error).toEqual(['data.staff_note is not an attribute of badges']);
  });

  it('answers 500 and sends nothing of it when a serializer gives it to a customer', async () => {
    const leaked = await customer.get(`/badges/${badgeId}`).set('X-Leak', 'on').expect(500);
    expect(leaked.body).toEqual({ error: ['internal server error'] });
    expect(leaked.text).not.toContain('internal-only');
    const shown = await admin.get(`/badges/${badgeId}`).set('X-Leak', 'on').expect(200);
    expect(shown.body.data.staff_note).toBe('internal-only');
  });

  // badges.holder_note is read and written by the badge's holder (and administrators).
  it('shows a member of the owner level to the row’s owner, and to no one else', async () => {
    const own = await customer.post('/badges', { holder_note: 'mine' }).expect(201);
    expect(own.body.data.holder_note).toBe('mine');
    const id = own.body.data.id as string;
    expect((await customer.get(`/badges/${id}`).expect(200)).body.data.holder_note).toBe('mine');
    const listed = await customer.get('/badges?filter[holder_note]=mine').expect(200);
    expect((listed.body.data as { id: string }[]).map((badge) => badge.id)).toEqual([id]);
    expect((await admin.get(`/badges/${id}`).expect(200)).body.data.holder_note).toBe('mine');
    const badgeOfStaff = await admin.post('/badges', {}).expect(201);
    expect(badgeOfStaff.body.data.holder_note).toBeNull();
  });

  it('shows the creator of a row given to someone else only the creator’s own level', async () => {
    const given = { hand_to: 'customer-2', holder_note: 'for you' };
    const sent = () => customer.post('/badges', given).set('Idempotency-Key', 'gift-1');
    const created = await sent().expect(201);
    expect(created.body.data.holder_id).toBe('customer-2');
    expect(created.body.data).not.toHaveProperty('holder_note');
    const replayed = await sent().expect(201);
    expect(replayed.body.data).toEqual(created.body.data);
    const held = await otherCustomer.get(`/badges/${created.body.data.id}`).expect(200);
    expect(held.body.data.holder_note).toBe('for you');
  });
});
