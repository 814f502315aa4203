import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express, Request, Response } from 'express';
import { entityTag, ifNoneMatchHits } from '../conditional/entity-tag';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import type { Failure } from '../errors/status';
import type { ResourceDefinition } from '../metadata/definition';
import { assertValidEnvelope, type AnswerShape } from '../validation/envelope.validator';

/** A resource answer as a value: one resource (or a null to-one), or a page with its cursor. */
export interface Envelope {
  readonly data: unknown;
  readonly cursor?: string | null;
}

const SHAPE = Symbol('resource-kit:answer-shape');
type AnsweredRequest = Request & { [SHAPE]?: AnswerShape };

/** Declares what the value a handler returns holds (the writer checks it against this). */
export function expectAnswer(request: Request, shape: AnswerShape): void {
  (request as AnsweredRequest)[SHAPE] = shape;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes the answers of resource routes, once, after every interceptor has run: Nest replies
 * with `response.json(value)`, and the writer takes over that method on the app's response
 * prototype (Express's `app.response`), for the requests whose handler declared an answer.
 * So the output check (SPEC 1.5) sees what the interceptors returned, and an answer off its
 * declaration is a 500 that is never sent. One that holds a single resource gets its strong
 * ETag (a hash of the wire form a GET shows: a create's on-create members left out), and a GET whose If-None-Match names it is answered 304 with
 * no body.
 */
@Injectable()
export class AnswerWriter implements OnModuleInit {
  constructor(
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<Express | undefined>();
    if (!app?.response) return; // no HTTP server (an application context)
    const reply = app.response.json;
    const write = (request: AnsweredRequest, response: Response, body: unknown) =>
      this.write(request, response, body);
    app.response.json = function (this: Response, body: unknown) {
      const request = this.req as AnsweredRequest;
      // Anything but a resource route's answer (another route's, or an error body a team's own
      // exception filter writes) goes out as Express writes it.
      if (request[SHAPE] === undefined || this.statusCode >= 400) return reply.call(this, body);
      write(request, this, body);
      return this;
    };
  }

  private write(request: AnsweredRequest, response: Response, body: unknown): void {
    // The request's time limit may have answered already.
    if (response.headersSent) return;
    if (this.options.validateOutput) assertValidEnvelope(request[SHAPE]!, body);
    const resource = singleResourceOf(body);
    if (resource) {
      const tag = entityTag(storedForm(request[SHAPE]!, resource));
      response.setHeader('ETag', tag);
      const condition = request.headers['if-none-match'];
      if (request.method === 'GET' && condition !== undefined && ifNoneMatchHits(condition, tag)) {
        response.statusCode = 304;
        response.end();
        return;
      }
    }
    writeJson(response, response.statusCode, body);
  }
}

/** Writes a failure in the error envelope under the service's error key. */
export function writeFailure(response: Response, failure: Failure, errorKey: string): void {
  if (response.headersSent) return;
  if (failure.headers) response.set(failure.headers);
  writeJson(response, failure.status, { [errorKey]: failure.messages });
}

function writeJson(response: Response, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', JSON_TYPE);
  response.end(JSON.stringify(body));
}

// A create's answer without its on-create members (a secret, a token): the form a GET shows,
// so that its ETag holds in If-Match at once and no secret reaches a header, even hashed.
function storedForm({ definition, created }: AnswerShape, resource: object): object {
  const onCreate = created ? onCreateMembers(definition) : NONE;
  if (onCreate.length === 0) return resource;
  const stored: Record<string, unknown> = { ...resource };
  for (const name of onCreate) delete stored[name];
  return stored;
}

const NONE: readonly string[] = [];
const onCreateNames = new WeakMap<ResourceDefinition, readonly string[]>();

function onCreateMembers(definition: ResourceDefinition): readonly string[] {
  let names = onCreateNames.get(definition);
  if (!names) {
    names = definition.attributes.filter((a) => a.output === 'on-create').map((a) => a.name);
    onCreateNames.set(definition, names);
  }
  return names;
}

// `{data: {...}}`: not a collection, not a null to-one.
function singleResourceOf(body: unknown): object | undefined {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? data : undefined;
}
