import {
  ArgumentsHost,
  CallHandler,
  Catch,
  ConflictException,
  ExceptionFilter,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  PipeTransform,
  Req,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { invalidInput, Override, ResourceController, ResourceData } from '@app/resource-kit';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import request from 'supertest';
import { FixtureApp, startFixtureApp } from './fixture/fixture-app';
import { Gadget } from './fixture/gadget.entity';

// Resource routes answer with values: a team's interceptors see `{data}` and `{data, cursor}`
// and may map them; the output check runs on what they return, so a member they add that the
// resource does not declare is a 500 and never sent, and so is a string or null. The ETag is
// the kit's form of the resource in the caller's view, whatever the interceptors send, so a
// client's If-Match and If-None-Match hold after a mapping. One operation can be overridden,
// and an override of a write receives the body's checked `data`.

type Envelope = { data: unknown; cursor?: string | null };
type Named = Record<string, unknown>;

const seen: string[][] = [];
const shout = (resource: Named, member: string) =>
  typeof resource[member] === 'string'
    ? { ...resource, [member]: resource[member].toUpperCase() }
    : resource;

/** What a team writes: map every answer, by a header, for every resource. */
function mapping(member: string, header: string) {
  @Injectable()
  class MappingInterceptor implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const mode = context.switchToHttp().getRequest<Request>().headers[header];
      return next.handle().pipe(
        map((value: Envelope) => {
          seen.push(Object.keys(value));
          if (mode === 'leak') return { ...value, data: { ...(value.data as Named), leak: 'x1' } };
          if (mode === 'reject') throw new ConflictException('rejected');
          if (mode === 'string') return 'a string x1';
          if (mode === 'null') return null;
          if (mode !== 'shout') return value;
          const data = Array.isArray(value.data)
            ? value.data.map((resource: Named) => shout(resource, member))
            : shout(value.data as Named, member);
          return { ...value, data };
        }),
      );
    }
  }
  return MappingInterceptor;
}

/** A team's own filter, writing its error body with Express's `json`. */
@Catch(ConflictException)
class TeamConflictFilter implements ExceptionFilter {
  catch(_exception: ConflictException, host: ArgumentsHost): void {
    host
      .switchToHttp()
      .getResponse<Response>()
      .status(409)
      .json({ error: ['the gadgets team said no'] });
  }
}

/** A team's pipe on the update's `data`: it receives the checked value. */
@Injectable()
class BracketLabel implements PipeTransform<ResourceData, ResourceData> {
  transform(data: ResourceData): ResourceData {
    return typeof data.label === 'string' ? { ...data, label: `[${data.label}]` } : data;
  }
}

@UseInterceptors(mapping('label', 'x-gadgets'))
@UseFilters(TeamConflictFilter)
class GadgetsController extends ResourceController(Gadget) {
  @Override()
  override async create(data: ResourceData, req: Request, res: Response): Promise<Envelope> {
    res.setHeader('X-Made-By', 'the gadgets team');
    // A rule on the input, and a member rewritten before the kit's create.
    if (String(data.label).startsWith('secret')) {
      throw invalidInput(['data.label must not start with "secret"']);
    }
    return super.create({ ...data, label: String(data.label).trim() }, req, res);
  }

  @Override()
  override update(
    @ResourceData(BracketLabel) data: ResourceData,
    @Req() req: Request,
  ): Promise<Envelope> {
    return super.update(data, req);
  }
}

describe('answers as values', () => {
  let fixture: FixtureApp;
  let widgetId: string;
  let gadgetId: string;
  const http = () => request(fixture.http);

  beforeAll(async () => {
    fixture = await startFixtureApp(
      {},
      {
        providers: [{ provide: APP_INTERCEPTOR, useClass: mapping('name', 'x-app') }],
        gadgetsController: GadgetsController,
      },
    );
    widgetId = (
      await http()
        .post('/widgets')
        .send({ data: { name: 'bolt', quantity: 2 } })
        .expect(201)
    ).body.data.id;
    gadgetId = (
      await http()
        .post('/gadgets')
        .send({ data: { label: 'box' } })
        .expect(201)
    ).body.data.id;
  });
  afterAll(() => fixture.close());

  it('shows an app-wide interceptor {data} and {data, cursor}, and sends what its map returns', async () => {
    seen.length = 0;
    const one = await http().get(`/widgets/${widgetId}`).set('X-App', 'shout').expect(200);
    expect(one.body.data).toMatchObject({ id: widgetId, name: 'BOLT' });
    const page = await http().get('/widgets?limit=5').set('X-App', 'shout').expect(200);
    const names = (page.body as { data: Named[] }).data.map((widget) => widget.name);
    expect(names).toContain('BOLT');
    expect(page.body).toHaveProperty('cursor');
    expect(seen).toEqual([['data'], ['data', 'cursor']]);
    // The ETag is the resource's, as the kit shows it to this caller: the same either way.
    const plain = await http().get(`/widgets/${widgetId}`).expect(200);
    expect(plain.body.data.name).toBe('bolt');
    expect(one.headers.etag).toBe(plain.headers.etag);
  });

  it('holds the ETag a mapped read gave in If-None-Match (304) and If-Match (PATCH, DELETE)', async () => {
    const shout = () => ({ 'X-App': 'shout' });
    const { body } = await http()
      .post('/widgets')
      .send({ data: { name: 'washer', quantity: 3 } })
      .expect(201);
    const path = `/widgets/${body.data.id}`;
    const read = await http().get(path).set(shout()).expect(200);
    expect(read.body.data.name).toBe('WASHER');
    const notModified = await http()
      .get(path)
      .set(shout())
      .set('If-None-Match', read.headers.etag)
      .expect(304);
    expect(notModified.text).toBe('');
    const changed = await http()
      .patch(path)
      .set(shout())
      .set('If-Match', read.headers.etag)
      .send({ data: { quantity: 4 } })
      .expect(200);
    expect(changed.body.data).toMatchObject({ name: 'WASHER', quantity: 4 });
    const stale = await http()
      .delete(path)
      .set(shout())
      .set('If-Match', read.headers.etag)
      .expect(412);
    expect(stale.body.error[0]).toContain('in the view of an anonymous caller');
    await http().delete(path).set(shout()).set('If-Match', changed.headers.etag).expect(200);
    await http().get(path).expect(404);
  });

  it('answers 500 and sends nothing when an interceptor maps the answer to a string or null', async () => {
    for (const mode of ['string', 'null']) {
      const mapped = await http().get(`/widgets/${widgetId}`).set('X-App', mode).expect(500);
      expect(mapped.body).toEqual({ error: ['internal server error'] });
      expect(mapped.text).not.toContain('x1');
      const created = await http()
        .post('/gadgets')
        .set('X-Gadgets', mode)
        .send({ data: { label: `mapped to ${mode}` } })
        .expect(500);
      expect(created.body).toEqual({ error: ['internal server error'] });
    }
  });

  it('answers 500 without sending a member an app-wide interceptor adds', async () => {
    const leaked = await http().get(`/widgets/${widgetId}`).set('X-App', 'leak').expect(500);
    expect(leaked.body).toEqual({ error: ['internal server error'] });
    expect(leaked.text).not.toContain('x1');
  });

  it('does the same for a controller\u2019s own interceptor, on that resource only', async () => {
    const one = await http().get(`/gadgets/${gadgetId}`).set('X-Gadgets', 'shout').expect(200);
    expect(one.body.data.label).toBe('BOX');
    const widget = await http().get(`/widgets/${widgetId}`).set('X-Gadgets', 'shout').expect(200);
    expect(widget.body.data.name).toBe('bolt');
    const leaked = await http().get(`/gadgets/${gadgetId}`).set('X-Gadgets', 'leak').expect(500);
    expect(leaked.text).not.toContain('x1');
  });

  it('lets a team\u2019s own filter write the error of an answer its interceptor refused', async () => {
    const refused = await http().get(`/gadgets/${gadgetId}`).set('X-Gadgets', 'reject').expect(409);
    expect(refused.body).toEqual({ error: ['the gadgets team said no'] });
  });

  it('still answers a failure in the error envelope', async () => {
    seen.length = 0;
    const missing = await http().get('/widgets/no-such-id').set('X-App', 'shout').expect(404);
    expect(missing.body).toEqual({ error: ['no widgets with id no-such-id'] });
    expect(seen).toEqual([]);
  });

  it('runs a team\u2019s override of one operation, and the kit\u2019s for the others', async () => {
    const created = await http()
      .post('/gadgets')
      .send({ data: { label: '  crate ' } })
      .expect(201);
    expect(created.headers['x-made-by']).toBe('the gadgets team');
    // The override trimmed the label before the kit's create stored it.
    expect(created.body.data).toMatchObject({ type: 'gadgets', label: 'crate' });
    const stored = await http().get(`/gadgets/${created.body.data.id}`).expect(200);
    expect(stored.body.data.label).toBe('crate');
    const invalid = await http()
      .post('/gadgets')
      .send({ data: { label: 7 } })
      .expect(400);
    expect(invalid.body.error[0]).toMatch(/label/);
    const widget = await http()
      .post('/widgets')
      .send({ data: { name: 'nut', quantity: 1 } })
      .expect(201);
    expect(widget.headers['x-made-by']).toBeUndefined();
    await http().get(`/gadgets/${created.body.data.id}`).expect(200);
  });

  it('refuses by the override\u2019s rule on the input, in the envelope, storing nothing', async () => {
    const before = (await http().get('/gadgets?limit=100').expect(200)).body.data.length;
    const refused = await http()
      .post('/gadgets')
      .send({ data: { label: 'secret plans' } })
      .expect(400);
    expect(refused.body).toEqual({ error: ['data.label must not start with "secret"'] });
    // The kit's check ran before the override: a malformed body never reaches it.
    const malformed = await http()
      .post('/gadgets')
      .send({ data: { colour: 'red' } })
      .expect(400);
    expect((malformed.body as { error: string[] }).error.join(' ')).toMatch(/colour/);
    expect(malformed.headers['x-made-by']).toBeUndefined();
    const after = (await http().get('/gadgets?limit=100').expect(200)).body.data.length;
    expect(after).toBe(before);
  });

  it('runs a team\u2019s pipe on an update\u2019s data, and checks again what the pipe returns', async () => {
    const { body } = await http()
      .post('/gadgets')
      .send({ data: { label: 'tin' } })
      .expect(201);
    const path = `/gadgets/${body.data.id}`;
    const piped = await http()
      .patch(path)
      .send({ data: { label: 'lid' } })
      .expect(200);
    expect(piped.body.data.label).toBe('[lid]');
    // The pipe's value is checked again: 49 characters and two brackets are too long.
    const tooLong = await http()
      .patch(path)
      .send({ data: { label: 'y'.repeat(49) } })
      .expect(400);
    expect(tooLong.body.error).toEqual(['data.label must be at most 50 characters']);
    expect((await http().get(path).expect(200)).body.data.label).toBe('[lid]');
  });
});

describe('a start the kit could not answer for', () => {
  it.each([
    ['ExpressAdapter', () => new ExpressAdapter()],
    ['FastifyAdapter', () => new FastifyAdapter()],
  ])(
    'is refused under another HTTP adapter with one line naming the fix (%s)',
    async (name, adapter) => {
      await expect(startFixtureApp({}, { adapter: adapter() })).rejects.toThrow(
        `resource-kit answers through its own HTTP adapter, and this app runs on ${name}: ` +
          'create it with NestFactory.create(AppModule, new ResourceKitAdapter(), { bodyParser: false })',
      );
    },
  );

  it('is refused with Nest\u2019s body parsers on, which would read resource bodies first', async () => {
    await expect(startFixtureApp({}, { bodyParser: true })).rejects.toThrow(
      "resource-kit reads the bodies of resource routes itself, and Nest's body parsers would " +
        'read them first: create the app with { bodyParser: false }',
    );
  });
});
