import {
  Controller,
  Get,
  INestApplication,
  Module,
  NestApplicationOptions,
  Req,
  Res,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResourceKitAdapter } from './resource-kit.adapter';

@Controller('echo')
class EchoController {
  @Get()
  echo(@Req() request: Request, @Res() response: Response): void {
    response.json({ path: request.path, locals: typeof response.locals });
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

// Whether each request and response reached the server on Express's prototypes already.
async function bornOnExpress(
  adapter: ExpressAdapter,
  options: NestApplicationOptions = {},
): Promise<{ born: boolean[]; body: unknown }> {
  const app: INestApplication = await NestFactory.create(EchoModule, adapter, {
    ...options,
    logger: false,
  });
  const express = app.getHttpAdapter().getInstance() as Express;
  const born: boolean[] = [];
  const server = app.getHttpServer() as Server;
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    born.push(Object.getPrototypeOf(request) === express.request);
    born.push(Object.getPrototypeOf(response) === express.response);
  });
  await app.listen(0, '127.0.0.1');
  try {
    const { port } = server.address() as AddressInfo;
    const body: unknown = await (await fetch(`http://127.0.0.1:${port}/echo`)).json();
    return { born, body };
  } finally {
    await app.close();
  }
}

describe('ResourceKitAdapter with prototypedServer', () => {
  it("builds requests and responses on Express's prototypes, which Express then serves", async () => {
    const { born, body } = await bornOnExpress(new ResourceKitAdapter({ prototypedServer: true }));
    expect(born).toEqual([true, true]);
    expect(body).toEqual({ path: '/echo', locals: 'object' });
  });

  it('leaves Nest its own server when Nest tracks the connections on it', async () => {
    const adapter = new ResourceKitAdapter({ prototypedServer: true });
    const { born, body } = await bornOnExpress(adapter, { forceCloseConnections: true });
    expect(born).toEqual([false, false]);
    expect(body).toEqual({ path: '/echo', locals: 'object' });
  });

  it("leaves Express to switch them without the option, as Nest's own adapter does", async () => {
    for (const adapter of [new ResourceKitAdapter(), new ExpressAdapter()]) {
      const { born, body } = await bornOnExpress(adapter);
      expect(born).toEqual([false, false]);
      expect(body).toEqual({ path: '/echo', locals: 'object' });
    }
  });
});
