import type { Request, Response } from 'express';
import { Attribute } from '../decorators/attribute.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceEntity } from '../decorators/resource-entity';
import { readResourceDefinition } from '../metadata/definition.reader';
import { serializeResource } from '../serialization/resource.serializer';
import { OutputValidationError } from '../validation/output.validator';
import { declaredAnswerOf, expectAnswer, expectResource, writeAnswer } from './answer';

@Resource({ type: 'keys', access: { read: 'public', create: 'public' } })
class Key extends ResourceEntity {
  @Attribute({ type: 'string' }) label!: string;
  @Attribute({ type: 'string', output: 'on-create', column: false, writable: false })
  secret!: string;
}

const keys = readResourceDefinition(Key);
const stored = Object.assign(new Key(), {
  id: 'k1',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  label: 'front door',
  secret: 's3cret',
});

/** A response as the writer uses it: what it was given, nothing sent over a socket. */
function responseRecorder() {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const response = {
    statusCode: 200,
    headersSent: false,
    setHeader(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
    },
    end(body?: string) {
      sent.status = this.statusCode;
      sent.body = body === undefined ? undefined : JSON.parse(body);
      this.headersSent = true;
    },
  };
  return { response: response as unknown as Response, sent };
}

function requestOf(method: string, headers: Record<string, string> = {}): Request {
  return { method, headers } as unknown as Request;
}

describe('the answer writer', () => {
  const read = serializeResource(keys, stored, { created: false });

  it('writes a declared resource with the ETag of the kit\u2019s form, whatever it is handed', () => {
    const request = requestOf('GET');
    expectResource(request, keys, read, false);
    const { response, sent } = responseRecorder();
    const mapped = { data: { ...read, label: 'FRONT DOOR' } };
    writeAnswer(request, response, mapped, declaredAnswerOf(request)!, true);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual(mapped);
    expect(sent.headers.etag).toBe(declaredAnswerOf(request)!.tag);
    expect(sent.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('tags a create as the stored resource, without its on-create members', () => {
    const created = serializeResource(keys, stored, { created: true });
    expect(created.secret).toBe('s3cret');
    const afterCreate = requestOf('POST');
    expectResource(afterCreate, keys, created, true);
    const afterRead = requestOf('GET');
    expectResource(afterRead, keys, read, false);
    expect(declaredAnswerOf(afterCreate)!.tag).toBe(declaredAnswerOf(afterRead)!.tag);
  });

  it('answers a GET whose If-None-Match names the tag with 304 and no body', () => {
    const first = requestOf('GET');
    expectResource(first, keys, read, false);
    const { tag } = declaredAnswerOf(first)!;
    const again = requestOf('GET', { 'if-none-match': `"other", W/${tag!}` });
    expectResource(again, keys, read, false);
    const { response, sent } = responseRecorder();
    writeAnswer(again, response, { data: read }, declaredAnswerOf(again)!, true);
    expect(sent.status).toBe(304);
    expect(sent.body).toBeUndefined();
  });

  it.each([
    ['a string', 'text'],
    ['null', null],
    ['an undeclared member', { data: { ...read, leak: 'x' } }],
    ['a page where one resource is declared', { data: [read] }],
  ])('refuses %s (a 500 of the exception filter), sending nothing', (_, body) => {
    const request = requestOf('GET');
    expectResource(request, keys, read, false);
    const { response, sent } = responseRecorder();
    expect(() => writeAnswer(request, response, body, declaredAnswerOf(request)!, true)).toThrow(
      OutputValidationError,
    );
    expect(sent.status).toBe(0);
  });

  it('refuses a string or null even with the output check off', () => {
    const request = requestOf('GET');
    expectAnswer(request, { definition: keys, created: false, page: true });
    for (const body of ['text', null]) {
      const { response, sent } = responseRecorder();
      expect(() => writeAnswer(request, response, body, declaredAnswerOf(request)!, false)).toThrow(
        OutputValidationError,
      );
      expect(sent.status).toBe(0);
    }
    const { response, sent } = responseRecorder();
    writeAnswer(
      request,
      response,
      { data: [read], cursor: null },
      declaredAnswerOf(request)!,
      false,
    );
    expect(sent.headers.etag).toBeUndefined();
    expect(sent.body).toEqual({ data: [read], cursor: null });
  });

  it('writes nothing once the request\u2019s time limit has answered', () => {
    const request = requestOf('GET');
    expectResource(request, keys, read, false);
    const { response, sent } = responseRecorder();
    (response as { headersSent: boolean }).headersSent = true;
    writeAnswer(request, response, { data: read }, declaredAnswerOf(request)!, true);
    expect(sent.status).toBe(0);
  });
});
