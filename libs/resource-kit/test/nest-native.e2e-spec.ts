import {
  CallHandler,
  CanActivate,
  Controller,
  ExecutionContext,
  ForbiddenException,
  Get,
  Inject,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestInterceptor,
  NestModule,
  UseGuards,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import {
  Attribute,
  Resource,
  ResourceController,
  ResourceEntity,
  ResourceModule,
  ResourceService,
} from '@app/resource-kit';
import { ClsModule, ClsService, CLS_REQ } from 'nestjs-cls';
import { BeforeInsert } from 'typeorm';
import type { NextFunction, Request, Response } from 'express';
import type { Observable } from 'rxjs';
import request from 'supertest';
import { FixtureApp, startFixtureApp } from './fixture/fixture-app';
import { Gadget } from './fixture/gadget.entity';
import { Widget } from './fixture/widget.entity';

// Resources are Nest routes: a team's guards, interceptors and middleware apply to them as to
// any other, and a route that would take a resource's path stops the start.

/** An app-wide tenant check: a request naming a blocked tenant is refused. */
@Injectable()
class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const tenant = context.switchToHttp().getRequest<Request>().headers['x-tenant'];
    if (tenant === 'blocked') throw new ForbiddenException('tenant blocked is suspended');
    return true;
  }
}

/** An app-wide interceptor that notes every request it sees. */
const seen: string[] = [];
@Injectable()
class AuditInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { method, url } = context.switchToHttp().getRequest<Request>();
    seen.push(`${method} ${url}`);
    return next.handle();
  }
}

/** One resource's own guard: gadgets are read-only on Sundays, here whenever a header says so. */
@Injectable()
class FreezeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp().getRequest<Request>();
    if (http.method !== 'GET' && http.headers['x-freeze'] === 'on') {
      throw new ForbiddenException('gadgets are frozen');
    }
    return true;
  }
}

@UseGuards(FreezeGuard)
class GadgetsController extends ResourceController(Gadget) {}

/** A hook that reads the request through nestjs-cls, the documented request context. */
@Injectable()
class GadgetsService extends ResourceService<Gadget> {
  @Inject(ClsService) private readonly cls!: ClsService;

  protected override beforeCreate(gadget: Gadget): void {
    const tenant = this.cls.get<Request>(CLS_REQ).headers['x-tenant'];
    if (typeof tenant === 'string') gadget.label = `${gadget.label} (${tenant})`;
  }
}

/** A TypeORM listener the kit's own writes would never call. */
@Resource({ type: 'stamps', access: { list: 'public', create: 'public' } })
class Stamp extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 20 })
  text!: string;

  @BeforeInsert()
  stamp(): void {
    this.text = 'stamped';
  }
}

@Module({})
class StampModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    const stamp = (_request: Request, response: Response, next: NextFunction) => {
      response.setHeader('X-Stamp', 'middleware');
      next();
    };
    consumer.apply(stamp).forRoutes(GadgetsController, ResourceController(Widget));
  }
}

describe('resources on Nest\u2019s router', () => {
  let fixture: FixtureApp;
  let gadgetId: string;
  const http = () => request(fixture.http);

  beforeAll(async () => {
    fixture = await startFixtureApp(
      {},
      {
        imports: [ClsModule.forRoot({ global: true, middleware: { mount: true } }), StampModule],
        providers: [
          { provide: APP_GUARD, useClass: TenantGuard },
          { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
        ],
        gadgetsController: GadgetsController,
        gadgetsService: GadgetsService,
      },
    );
    gadgetId = (
      await http()
        .post('/gadgets')
        .send({ data: { label: 'box' } })
        .expect(201)
    ).body.data.id;
  });
  afterAll(() => fixture.close());

  it('runs an app-wide guard on collection, item and relationship paths, in the error envelope', async () => {
    const before = (await http().get('/widgets').expect(200)).body.data.length;
    for (const [method, path] of [
      ['get', '/widgets'],
      ['post', '/widgets'],
      ['get', `/gadgets/${gadgetId}`],
      ['patch', `/gadgets/${gadgetId}`],
      ['get', `/gadgets/${gadgetId}/widgets`],
    ] as const) {
      const refused = await http()
        [method](path)
        .set('X-Tenant', 'blocked')
        .send({ data: { name: 'sneaky', quantity: 1 } })
        .expect(403);
      expect(refused.body).toEqual({ error: ['tenant blocked is suspended'] });
    }
    expect((await http().get('/widgets').expect(200)).body.data).toHaveLength(before);
    const gadget = await http().get(`/gadgets/${gadgetId}`).expect(200);
    expect(gadget.body.data.label).toBe('box');
  });

  it('runs an app-wide interceptor for every resource request its guards let through', async () => {
    seen.length = 0;
    await http().get(`/gadgets/${gadgetId}`).expect(200);
    await http().get('/widgets?limit=1').expect(200);
    await http().get(`/gadgets/${gadgetId}/widgets`).expect(200);
    await http().get('/gadgets/no-such-id').expect(404);
    // As on any Nest route, a request its guards refuse (the kit's: 401, 403, 405) stops there.
    await http().delete(`/gadgets/${gadgetId}`).expect(401);
    expect(seen).toEqual([
      `GET /gadgets/${gadgetId}`,
      'GET /widgets?limit=1',
      `GET /gadgets/${gadgetId}/widgets`,
      'GET /gadgets/no-such-id',
    ]);
  });

  it('applies a resource controller\u2019s own guard to that resource only', async () => {
    const frozen = await http()
      .patch(`/gadgets/${gadgetId}`)
      .set('X-Freeze', 'on')
      .send({ data: { label: 'changed' } })
      .expect(403);
    expect(frozen.body).toEqual({ error: ['gadgets are frozen'] });
    await http().get(`/gadgets/${gadgetId}`).set('X-Freeze', 'on').expect(200);
    await http()
      .post('/widgets')
      .set('X-Freeze', 'on')
      .send({ data: { name: 'free', quantity: 1 } })
      .expect(201);
  });

  it('lets a hook read a request header through nestjs-cls', async () => {
    const created = await http()
      .post('/gadgets')
      .set('X-Tenant', 'acme')
      .send({ data: { label: 'crate' } })
      .expect(201);
    expect(created.body.data.label).toBe('crate (acme)');
  });

  it('runs MiddlewareConsumer middleware for resource paths', async () => {
    for (const path of ['/widgets', `/gadgets/${gadgetId}`, `/gadgets/${gadgetId}/widgets`]) {
      const answer = await http().get(path).expect(200);
      expect(answer.headers['x-stamp']).toBe('middleware');
    }
    const unknown = await http().get('/unknown').expect(404);
    expect(unknown.headers['x-stamp']).toBeUndefined();
  });
});

describe('what would bypass the kit stops the start', () => {
  @Controller('gadgets')
  class FeaturedGadgetsController {
    @Get('featured')
    featured(): string[] {
      return [];
    }
  }

  @Controller()
  class CatchAllController {
    @Get(':page')
    page(): string {
      return 'page';
    }
  }

  it('stops the start when a resource entity has a TypeORM listener, naming the hook to use', async () => {
    @Module({ imports: [ResourceModule.forFeature(Stamp)] })
    class StampsModule {}
    await expect(startFixtureApp({}, { imports: [StampsModule] })).rejects.toThrow(
      'Stamp.stamp is a TypeORM @BeforeInsert listener: use the resource service\u2019s hooks (beforeCreate, beforeUpdate, beforeDelete, afterWrite)',
    );
  });

  it.each([
    [
      FeaturedGadgetsController,
      'FeaturedGadgetsController.featured routes GET /gadgets/featured, under the resource type gadgets',
    ],
    [
      CatchAllController,
      'CatchAllController.page routes GET /:page, whose first segment would match every resource type',
    ],
  ])('stops the start with a message (%p)', async (controller, message) => {
    @Module({ controllers: [controller] })
    class TeamModule {}
    await expect(startFixtureApp({}, { imports: [TeamModule] })).rejects.toThrow(message);
  });
});
