import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { assertLibraryMajor } from '../persistence/library-internals';
import { declaredAnswerOf, writeAnswer } from './answer';

export interface ResourceKitAdapterOptions {
  /**
   * Builds each request and response on Express's own prototypes, so that Express need not
   * switch them as it takes the request (`Object.setPrototypeOf`, twice per request): the
   * objects keep one shape from birth. Reads Nest's Express adapter's server field, so it is
   * checked against @nestjs/platform-express 12 at start. Not applied with HTTPS or
   * `forceCloseConnections`, where Nest ties state to its own server. Default false.
   */
  readonly prototypedServer?: boolean;
}

/**
 * Nest's Express adapter with the kit's one seam in it: `reply`, where Nest hands a route's
 * value to the response after every interceptor. A resource route's answer is written by the
 * kit (the output check, the ETag, 304); every other route's goes out as Nest writes it. The
 * app is created with it, and the kit refuses to start under any other adapter.
 * @example
 *   const app = await NestFactory.create(AppModule, new ResourceKitAdapter(), { bodyParser: false });
 */
export class ResourceKitAdapter extends ExpressAdapter {
  private validateOutput = true;
  private nestParsesBodies = false;

  constructor(private readonly kitOptions: ResourceKitAdapterOptions = {}) {
    super();
  }

  /** Nest registers its body parsers unless the app is created with `bodyParser: false`. */
  override registerParserMiddleware(prefix?: string, rawBody?: boolean): void {
    this.nestParsesBodies = true;
    super.registerParserMiddleware(prefix, rawBody);
  }

  /**
   * Stops a start whose resource answers the kit could not write, with the one line that fixes
   * it: an app on another adapter would send them unchecked, and one whose Nest body parsers run
   * would read resource bodies before the kit (another limit, errors outside the envelope).
   * An application context (no HTTP) has no adapter.
   */
  static attach(adapter: object | undefined, validateOutput: boolean): void {
    if (adapter === undefined) return;
    if (!(adapter instanceof ResourceKitAdapter)) {
      throw new Error(
        `resource-kit answers through its own HTTP adapter, and this app runs on ` +
          `${adapter.constructor.name}: create it with ` +
          'NestFactory.create(AppModule, new ResourceKitAdapter(), { bodyParser: false })',
      );
    }
    if (adapter.nestParsesBodies) {
      throw new Error(
        "resource-kit reads the bodies of resource routes itself, and Nest's body parsers would " +
          'read them first: create the app with { bodyParser: false }',
      );
    }
    adapter.validateOutput = validateOutput;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const declared = declaredAnswerOf(response.req);
    if (declared === undefined) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    // A team's exception filter that replies through the adapter writes its own error body.
    if (response.statusCode >= 400) return super.reply(response, body);
    writeAnswer(response.req, response, body, declared, this.validateOutput);
    return response;
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // Nest's own set-up first (its server, its 503-on-closing middleware); its server is then
    // replaced before anything listens: one unused object at start.
    super.initHttpServer(options);
    if (!this.kitOptions.prototypedServer) return;
    if (options.httpsOptions || options.forceCloseConnections) return;
    assertLibraryMajor(
      '@nestjs/platform-express',
      dirname(require.resolve('@nestjs/platform-express/package.json')),
      12,
      'http/resource-kit.adapter.ts (prototypedServer)',
    );
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: constructorOn(IncomingMessage, app.request),
        ServerResponse: constructorOn(ServerResponse, app.response),
      },
      app,
    );
  }
}

// A constructor of `base`'s objects born on `prototype` (which inherits from base's).
function constructorOn<T extends typeof IncomingMessage | typeof ServerResponse>(
  base: T,
  prototype: object,
): T {
  function Constructed(...args: unknown[]): object {
    return Reflect.construct(base, args, Constructed) as object;
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}
