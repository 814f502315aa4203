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
});
