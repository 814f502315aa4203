import {
  ArgumentsHost,
  CallHandler,
  Catch,
  ConflictException,
  ExceptionFilter,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Override, ResourceController } from '@app/resource-kit';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import request from 'supertest';
import { FixtureApp, startFixtureApp } from './fixture/fixture-app';
import { Gadget } from './fixture/gadget.entity';

// Resource routes answer with values: a team's interceptors see `{data}` and `{data, cursor}`
// and may map them; the output check runs on what they return, so a member they add that the
// resource does not declare is a 500 and never sent. One operation can be overridden.

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

@UseInterceptors(mapping('label', 'x-gadgets'))
@UseFilters(TeamConflictFilter)
class GadgetsController extends ResourceController(Gadget) {
  @Override()
  override async create(req: Request, res: Response): Promise<Envelope> {
    res.setHeader('X-Made-By', 'the gadgets team');
    return super.create(req, res);
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
    // The ETag is the representation sent.
    const plain = await http().get(`/widgets/${widgetId}`).expect(200);
    expect(plain.headers.etag).not.toBe(one.headers.etag);
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
      .send({ data: { label: 'crate' } })
      .expect(201);
    expect(created.headers['x-made-by']).toBe('the gadgets team');
    expect(created.body.data).toMatchObject({ type: 'gadgets', label: 'crate' });
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
});

describe('an override without @Override()', () => {
  class ForgetfulController extends ResourceController(Gadget) {
    override read(req: Request): Promise<Envelope> {
      return super.read(req);
    }
  }

  it('stops the start, since the operation would have no route', async () => {
    await expect(startFixtureApp({}, { gadgetsController: ForgetfulController })).rejects.toThrow(
      'ForgetfulController.read overrides an operation without @Override(), so it would have no route',
    );
  });
});
