import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { KIT_AUTH_OPTIONS } from '../auth/auth.options';
import { Authenticator } from '../auth/authenticator';
import { JwtStrategy } from '../auth/jwt.strategy';
import { StaticTokenRegistry } from '../auth/static-token.registry';
import { StaticTokenStrategy } from '../auth/static-token.strategy';
import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { KitError } from '../errors/kit.error';
import { JsonBodyReader } from '../http/json-body.reader';
import { readResourceDefinition } from '../metadata/definition.reader';
import { RESOURCE_KIT_OPTIONS, resolveKitOptions } from '../resource-kit.options';
import type { RegisteredResource } from '../service/registered-resource';
import { ResourceRegistry } from '../service/resource-registry';
import { ResourceController, type ResourceRoutes } from './resource.controller';
import { resourceCallOf, ResourceGuard } from './resource.guard';

// The guard's decisions on a request, without HTTP: which operation a route and verb ask for,
// 404 and 405 on the path, 401 and 403 by the access level, and the call it admits.

@Resource({ type: 'notes', access: { list: 'public', read: 'authenticated', update: 'admin' } })
class Note extends ResourceEntity {
  @Attribute({ type: 'string' }) text!: string;
}

const TOKENS = { customer: 'customer-token-0123456789', admin: 'admin-token-0123456789ab' };
const routes = ResourceController(Note).prototype as ResourceRoutes & Record<string, unknown>;

async function guardOf(): Promise<ResourceGuard> {
  const module = await Test.createTestingModule({
    providers: [
      ResourceGuard,
      ResourceRegistry,
      Authenticator,
      StaticTokenStrategy,
      StaticTokenRegistry,
      JwtStrategy,
      JsonBodyReader,
      Reflector,
      { provide: DataSource, useValue: {} },
      { provide: RESOURCE_KIT_OPTIONS, useValue: resolveKitOptions({}) },
      {
        provide: KIT_AUTH_OPTIONS,
        useValue: {
          jwt: {
            algorithm: 'HS256',
            secret: 'unit',
            issuer: 'i',
            audience: 'a',
            lifetimeSeconds: 60,
          },
        },
      },
    ],
  }).compile();
  const definition = readResourceDefinition(Note);
  module.get(ResourceRegistry).register({ definition } as RegisteredResource);
  const tokens = module.get(StaticTokenRegistry);
  tokens.register(TOKENS.customer, { id: 'u1', role: 'customer' });
  tokens.register(TOKENS.admin, { id: 'a1', role: 'admin' });
  return module.get(ResourceGuard);
}

interface Asked {
  request: Request;
  headers: Record<string, string>;
  admitted: Promise<boolean>;
}

// Runs the guard on `method path` routed to the controller's `route` method.
function ask(
  guard: ResourceGuard,
  route: string,
  method: string,
  path: string,
  token?: string,
): Asked {
  const headers: Record<string, string> = {};
  const request = {
    method,
    path,
    url: path,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  } as unknown as Request;
  const response = { set: (more: Record<string, string>) => Object.assign(headers, more) };
  const context = new ExecutionContextHost(
    [request, response],
    ResourceController(Note),
    routes[route] as () => unknown,
  );
  context.setType('http');
  return { request, headers, admitted: Promise.resolve().then(() => guard.canActivate(context)) };
}

async function refusal(asked: Asked): Promise<KitError> {
  const error = await asked.admitted.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(KitError);
  return error as KitError;
}

describe('ResourceGuard', () => {
  let guard: ResourceGuard;
  beforeAll(async () => {
    guard = await guardOf();
  });

  it('admits an anonymous list of a public resource, with its operation and no caller', async () => {
    const asked = ask(guard, 'list', 'GET', '/notes');
    await expect(asked.admitted).resolves.toBe(true);
    const call = resourceCallOf(asked.request);
    expect([call.operation, call.id, call.caller]).toEqual(['list', undefined, undefined]);
    expect(asked.headers['Cache-Control']).toBeUndefined();
  });

  it('admits a signed-in read with the caller and the id, marked private', async () => {
    const asked = ask(guard, 'read', 'GET', '/notes/n%201', TOKENS.customer);
    await expect(asked.admitted).resolves.toBe(true);
    const call = resourceCallOf(asked.request);
    expect([call.operation, call.id, call.caller?.id]).toEqual(['read', 'n 1', 'u1']);
    expect(asked.headers['Cache-Control']).toBe('no-store');
  });

  it('answers a verb the resource lacks on a path with 405 and Allow', async () => {
    const deleted = await refusal(ask(guard, 'otherOnItem', 'DELETE', '/notes/n1'));
    expect([deleted.code, deleted.headers.Allow]).toEqual(['method_not_allowed', 'GET, PATCH']);
    const posted = await refusal(ask(guard, 'otherOnCollection', 'POST', '/notes'));
    expect(posted.headers.Allow).toBe('GET');
    const head = await refusal(ask(guard, 'read', 'HEAD', '/notes/n1'));
    expect(head.code).toBe('method_not_allowed');
  });

  it('names nothing by a path that differs from the type in case or by a trailing slash', async () => {
    for (const path of ['/Notes', '/notes/']) {
      expect((await refusal(ask(guard, 'list', 'GET', path))).code).toBe('not_found');
    }
  });

  it('asks a token of a signed-in operation (401), and an administrator of an admin one (403)', async () => {
    const anonymous = await refusal(ask(guard, 'read', 'GET', '/notes/n1'));
    expect([anonymous.code, anonymous.headers['WWW-Authenticate']]).toEqual([
      'unauthenticated',
      'Bearer',
    ]);
    const forged = await refusal(ask(guard, 'read', 'GET', '/notes/n1', 'not-a-token'));
    expect(forged.code).toBe('unauthenticated');
    const customer = await refusal(ask(guard, 'update', 'PATCH', '/notes/n1', TOKENS.customer));
    expect(customer.code).toBe('forbidden');
  });

  it('treats a bad token on a public operation as no token', async () => {
    const asked = ask(guard, 'list', 'GET', '/notes', 'not-a-token');
    await expect(asked.admitted).resolves.toBe(true);
    expect(resourceCallOf(asked.request).caller).toBeUndefined();
  });
});
