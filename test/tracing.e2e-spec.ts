import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_TOKEN, STATIC_ADMIN } from './support/shop-client';
import { ServiceProcess, startService } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { scaledMs } from './support/machine-load';

// The built service as a process (the instrumentations hook Node's module loader, which the
// test runner replaces), exporting to an OTLP/HTTP receiver this spec runs (SPEC 1.14).
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;
jest.setTimeout(scaledMs(60_000));

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  links?: { traceId: string; spanId: string }[];
}

// OTLP/JSON: resourceSpans[].scopeSpans[].spans[], ids in hex, attribute values typed.
interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}
type OtlpSpan = Omit<ReceivedSpan, 'scope' | 'attributes'> & { attributes?: OtlpAttribute[] };
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

const valueOf = (value: Record<string, unknown>) => Object.values(value)[0];
const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** A collector's OTLP/HTTP traces endpoint, keeping every span it is sent. */
async function receiver(): Promise<{
  server: Server;
  url: string;
  spans: ReceivedSpan[];
  services: Set<unknown>;
}> {
  const spans: ReceivedSpan[] = [];
  const services = new Set<unknown>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        for (const { resource, scopeSpans } of (JSON.parse(body) as OtlpExport).resourceSpans) {
          services.add(attributesOf(resource.attributes)['service.name']);
          for (const { scope, spans: sent } of scopeSpans) {
            for (const span of sent) {
              spans.push({ ...span, scope: scope.name, attributes: attributesOf(span.attributes) });
            }
          }
        }
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    services,
  };
}

onPostgres('traces (OpenTelemetry)', () => {
  let database: TestDatabase;
  let collector: Awaited<ReturnType<typeof receiver>>;
  const running: ServiceProcess[] = [];

  const start = async (env: Record<string, string>) => {
    const service = startService({
      NODE_ENV: 'production',
      JWT_SECRET: 'Nw5tR8yB2kQ6vX1mZ4pL7cH0jF3sD9gT',
      STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
      ...database.env,
      ...env,
    });
    running.push(service);
    return { service, url: `http://127.0.0.1:${await service.listening()}` };
  };
  const traceparent = () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
  };
  const spansOf = async (traceId: string, until: (spans: ReceivedSpan[]) => boolean) => {
    const deadline = Date.now() + 10_000;
    let spans = collector.spans.filter((span) => span.traceId === traceId);
    while (!until(spans) && Date.now() < deadline) {
      await sleep(100);
      spans = collector.spans.filter((span) => span.traceId === traceId);
    }
    return spans;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    collector = await receiver();
  });
  afterEach(async () => {
    for (const service of running.splice(0)) {
      service.child.kill('SIGTERM');
      await service.exit();
    }
  });
  afterAll(async () => {
    collector.server.close();
    await database.drop();
  });

  const exporting = () => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Sent within 100 ms instead of 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });

  it("continues the gateway's traceparent with spans from http, express, Nest, the kit and pg; the request's log lines carry its ids", async () => {
    const { service, url } = await start(exporting());
    const created = await fetch(`${url}/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Traced', price_cents: 100, stock: 1 } }),
    });
    const product = ((await created.json()) as { data: { id: string } }).data;

    const { traceId, parentId, header } = traceparent();
    const read = await fetch(`${url}/products/${product.id}`, { headers: { traceparent: header } });
    expect(read.status).toBe(200);
    const spans = await spansOf(
      traceId,
      (found) =>
        found.some((span) => span.scope === '@opentelemetry/instrumentation-pg') &&
        found.some((span) => span.kind === 2),
    );

    const named = (name: string) => spans.find((span) => span.name === name);
    const server = named('GET /products/:id');
    expect(server).toMatchObject({
      kind: 2,
      parentSpanId: parentId,
      scope: '@opentelemetry/instrumentation-http',
    });
    // Nest's handler span names the operation's own route method.
    const nest = named('ResourceController(Product).read');
    expect(nest?.attributes).toMatchObject({
      'nestjs.controller': 'ResourceController(Product)',
      'nestjs.callback': 'read',
      'shop.domain': 'catalog',
    });
    const operation = named('GET products');
    expect(operation?.attributes).toEqual({
      'resource.type': 'products',
      'resource.operation': 'read',
      'resource.id': product.id,
    });
    expect(operation?.parentSpanId).toBe(nest?.spanId);
    const statements = spans.filter(
      (span) =>
        span.scope === '@opentelemetry/instrumentation-pg' && span.name.startsWith('pg.query'),
    );
    expect(statements.length).toBeGreaterThan(0);
    // Each statement runs under the operation: follow its parents up to it.
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const statement of statements) {
      let ancestor: ReceivedSpan | undefined = statement;
      while (ancestor && ancestor !== operation) ancestor = byId.get(ancestor.parentSpanId ?? '');
      expect(ancestor).toBe(operation);
    }
    expect(spans.some((span) => span.scope === '@opentelemetry/instrumentation-express')).toBe(
      true,
    );
    expect(collector.services).toContain('shop-api');

    const lines = service
      .output()
      .split('\n')
      .filter(
        (line) => line.includes(`/products/${product.id}`) && line.includes('request completed'),
      );
    expect(lines).toHaveLength(1);
    const readLine = JSON.parse(lines[0]) as { trace_id?: string; span_id?: string };
    expect(readLine.trace_id).toBe(traceId);
    expect(readLine.span_id).toBe(server?.spanId);
  });

  it('names the operation of a write and of a failed read', async () => {
    const { url } = await start(exporting());
    const write = traceparent();
    const created = await fetch(`${url}/products`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        'Content-Type': 'application/json',
        traceparent: write.header,
      },
      body: JSON.stringify({ data: { name: 'Traced write', price_cents: 100, stock: 1 } }),
    });
    expect(created.status).toBe(201);
    const writeSpans = await spansOf(write.traceId, (found) =>
      found.some((span) => span.kind === 2),
    );
    expect(writeSpans.find((span) => span.name === 'POST products')?.attributes).toEqual({
      'resource.type': 'products',
      'resource.operation': 'create',
    });
    // The transaction's statements are traced too, with their SQL.
    expect(
      writeSpans.some(
        (span) =>
          span.name.startsWith('pg.query:') &&
          String(span.attributes['db.query.text']).includes('INSERT INTO'),
      ),
    ).toBe(true);

    const missing = traceparent();
    const notFound = await fetch(`${url}/products/${randomBytes(4).toString('hex')}`, {
      headers: { traceparent: missing.header },
    });
    expect(notFound.status).toBe(404);
    const missingSpans = await spansOf(missing.traceId, (found) =>
      found.some((span) => span.kind === 2),
    );
    expect(missingSpans.find((span) => span.name === 'GET products')?.attributes).toMatchObject({
      'resource.error': 'not_found',
    });
  });

  it('traces each webhook attempt, linked to the write that recorded the event', async () => {
    const hooks = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
    const { url } = await start({ ...exporting(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const headers = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const subscribed = await fetch(`${url}/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { url: hookUrl, subject_type: 'products' } }),
    });
    expect(subscribed.status).toBe(201);
    const write = traceparent();
    const created = await fetch(`${url}/products`, {
      method: 'POST',
      headers: { ...headers, traceparent: write.header },
      body: JSON.stringify({ data: { name: 'Hooked', price_cents: 100, stock: 1 } }),
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 10_000;
    const linked = () =>
      collector.spans.find(
        (span) =>
          span.name === 'webhook delivery' &&
          span.links?.some((link) => link.traceId === write.traceId),
      );
    while (!linked() && Date.now() < deadline) await sleep(100);
    hooks.close();
    const attempt = linked();
    expect(attempt?.attributes).toMatchObject({
      'webhook.attempt': 1,
      'http.response.status_code': 204,
    });
    // The POST itself is the http client span inside the attempt's own trace.
    const post = await spansOf(attempt!.traceId, (spans) => spans.some((span) => span.kind === 3));
    expect(post.find((span) => span.kind === 3)?.parentSpanId).toBe(attempt!.spanId);
  });

  it('exports nothing and adds no trace ids to the logs when the SDK is disabled', async () => {
    const { service, url } = await start({ ...exporting(), OTEL_SDK_DISABLED: 'true' });
    const { traceId, header } = traceparent();
    expect((await fetch(`${url}/products`, { headers: { traceparent: header } })).status).toBe(200);
    await sleep(1_000);
    expect(collector.spans.filter((span) => span.traceId === traceId)).toEqual([]);
    const line = service
      .output()
      .split('\n')
      .find((candidate) => candidate.includes('request completed'));
    expect(line).toBeDefined();
    expect(line).not.toContain('trace_id');
  });
});
