import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookEndpoint } from '../apps/api/src/modules/webhooks/webhook-endpoint.entity';
import {
  ADMIN_TOKEN,
  CROSS_TENANT_TOKEN,
  OTHER_TENANT_ADMIN_TOKEN,
  ShopClient,
  TENANT_TOKENS,
} from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver, type Received } from './support/webhook-receiver';

type Row = Record<string, unknown> & { id: string };

const onPostgres = process.env.TEST_DATABASE === 'postgres' ? it : it.skip;
// Retries a tenth of a second apart, so that a spec sees the schedule run out.
const QUICK_RETRIES = { WEBHOOK_RETRY_DELAYS_SECONDS: '0.1,0.1,0.1,0.1' };

// SPEC 1.17: endpoints and deliveries are resources; the worker delivers from the outbox.
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('webhooks', () => {
  const running: TestApp[] = [];
  const receivers: WebhookReceiver[] = [];

  const start = async (env: Record<string, string> = {}, shared?: TestApp) => {
    const service = await startTestApp(
      { ...QUICK_RETRIES, ...env },
      { database: shared?.database },
    );
    running.push(service);
    return service;
  };
  afterEach(async () => {
    for (const service of running.splice(0).reverse()) await service.close();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  const admin = (service: TestApp) => new ShopClient(service.http).as(ADMIN_TOKEN);

  /** A receiver and the endpoint that points to it, for the events of products. */
  const subscribe = async (service: TestApp, receiver: WebhookReceiver, filters: object = {}) => {
    receivers.push(receiver);
    const url = await receiver.listen();
    const created = await admin(service)
      .post('/webhook_endpoints', { url, subject_type: 'products', ...filters })
      .expect(201);
    receiver.useSecret(created.body.data.secret as string);
    return created.body.data as Row;
  };
  const createProduct = async (service: TestApp, name = 'Kettle') =>
    (await admin(service).post('/products', { name, price_cents: 1_000, stock: 3 }).expect(201))
      .body.data as Row;
  const deliveriesOf = async (service: TestApp, endpoint: Row) =>
    (
      await admin(service)
        .get(`/webhook_endpoints/${endpoint.id}/webhook_deliveries?limit=100&order=created_at`)
        .expect(200)
    ).body.data as Row[];

  it('keeps endpoints to administrators, shows the secret once, and refuses unsafe URLs', async () => {
    const service = await start({ WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com' });
    const endpoint = await admin(service)
      .post('/webhook_endpoints', { url: 'https://1.1.1.1/hooks', action: 'created' })
      .expect(201);
    expect(endpoint.body.data).toMatchObject({ status: 'active', action: 'created' });
    expect(endpoint.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await admin(service)
      .get(`/webhook_endpoints/${endpoint.body.data.id}`)
      .expect(200);
    expect(read.body.data).not.toHaveProperty('secret');
    const { token } = await new ShopClient(service.http).customer('hooks@example.com');
    await new ShopClient(service.http).as(token).get('/webhook_endpoints').expect(403);
    await admin(service).post('/webhook_deliveries', {}).expect(405);

    const refused = async (url: string, message: string | RegExp) => {
      const answer = await admin(service).post('/webhook_endpoints', { url }).expect(400);
      expect(answer.body.error).toHaveLength(1);
      expect(answer.body.error[0]).toMatch(message);
    };
    const notAllowed = 'not a public address, and the configuration does not allow it';
    await refused(
      'http://1.1.1.1/hooks',
      'must be https (plain http only to hosts the configuration allows)',
    );
    await refused('https://127.0.0.1:9/hooks', `127.0.0.1 is ${notAllowed}`);
    await refused(
      'https://localhost/hooks',
      /^data.url host localhost resolves to (127\.0\.0\.1|::1), not a public address/,
    );
    await refused('https://10.0.0.8/hooks', `10.0.0.8 is ${notAllowed}`);
    await refused('https://[::ffff:169.254.169.254]/', `::ffff:a9fe:a9fe is ${notAllowed}`);
    // IPv6 outside global unicast: IPv4-compatible, NAT64
    await refused('https://[::127.0.0.1]/', `::7f00:1 is ${notAllowed}`);
    await refused('https://[64:ff9b::a00:1]/', `64:ff9b::a00:1 is ${notAllowed}`);
    await refused('ftp://1.1.1.1/', 'must be an https URL');
    const unknownType = await admin(service)
      .post('/webhook_endpoints', { url: 'https://1.1.1.1/', subject_type: 'invoices' })
      .expect(400);
    expect(unknownType.body.error[0]).toMatch(/^data.subject_type must be one of .*products/);
    const unchanged = await admin(service).get('/webhook_endpoints').expect(200);
    expect(unchanged.body.data).toHaveLength(1);
  });

  it('delivers a product created, updated and deleted, signed, in that order', async () => {
    const service = await start();
    const receiver = new WebhookReceiver();
    const endpoint = await subscribe(service, receiver, { subject_type: 'products' });
    const product = await createProduct(service);
    await admin(service).patch(`/products/${product.id}`, { stock: 4 }).expect(200);
    await admin(service).delete(`/products/${product.id}`).expect(200);

    const received = await receiver.waitFor(3);
    expect(receiver.refused).toEqual([]);
    expect(received.map(({ event }) => [event.action, event.subject])).toEqual(
      ['created', 'updated', 'deleted'].map((action) => [
        action,
        { type: 'products', id: product.id },
      ]),
    );
    // webhook-id is the event id, so a receiver recognises a repeat.
    for (const { id, event } of received) expect(id).toBe(event.id);
    const events = await admin(service).get(`/events?filter[action]=created&limit=100`).expect(200);
    expect((events.body.data as Row[]).map((event) => event.id)).toContain(received[0].id);
    await sleep(300);
    const deliveries = await deliveriesOf(service, endpoint);
    expect(
      deliveries.map((delivery) => [delivery.event_id, delivery.status, delivery.attempt]),
    ).toEqual(received.map(({ id }) => [id, 'succeeded', 1]));
    expect(deliveries[0]).toMatchObject({ response_status: 204, next_attempt_at: null });
    // Ids are UUIDv7s (on PostgreSQL, made by the hand-out's statement); the list above,
    // ordered by creation with the id breaking ties, is in the events' order.
    for (const delivery of deliveries) expect(delivery.id).toMatch(UUID_V7);
    expect(receiver.overlaps).toBe(0);
  });

  // SPEC 1.15: what an administrator of a tenant makes is that tenant's. The shop's products
  // are of no tenant, so every endpoint receives their events (the generator's spec proves
  // that a tenant's events reach its endpoints alone, test/tooling/generator.e2e-spec.ts).
  it("keeps a tenant's endpoint and its deliveries to that tenant, and gives it the shop's events", async () => {
    const service = await start({ STATIC_TOKENS: TENANT_TOKENS });
    const receiver = new WebhookReceiver();
    const endpoint = await subscribe(service, receiver);
    const product = await createProduct(service);
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.event.subject).toEqual({ type: 'products', id: product.id });

    const as = (token: string) => new ShopClient(service.http).as(token);
    const other = as(OTHER_TENANT_ADMIN_TOKEN);
    await other.get(`/webhook_endpoints/${endpoint.id}`).expect(404);
    await other.get(`/webhook_endpoints/${endpoint.id}/webhook_deliveries`).expect(404);
    expect((await other.get('/webhook_endpoints').expect(200)).body.data).toEqual([]);
    expect((await other.get('/webhook_deliveries').expect(200)).body.data).toEqual([]);
    await other.patch(`/webhook_endpoints/${endpoint.id}`, { status: 'disabled' }).expect(404);
    const operator = as(CROSS_TENANT_TOKEN);
    await operator.get(`/webhook_endpoints/${endpoint.id}`).expect(200);
    const deliveries = (await operator.get('/webhook_deliveries').expect(200)).body.data as Row[];
    expect(deliveries.map((delivery) => delivery.event_id)).toEqual([delivered.id]);

    // The operator's own endpoint is of no tenant: no tenant's administrator reads, changes
    // or deletes it, or lists its deliveries.
    const operatorReceiver = new WebhookReceiver();
    receivers.push(operatorReceiver);
    const url = await operatorReceiver.listen();
    const created = await operator
      .post('/webhook_endpoints', { url, subject_type: 'products' })
      .expect(201);
    const ofNone = created.body.data as Row;
    operatorReceiver.useSecret(ofNone.secret as string);
    await createProduct(service, 'Teapot');
    await operatorReceiver.waitFor(1);
    for (const tenantAdmin of [admin(service), other]) {
      await tenantAdmin.get(`/webhook_endpoints/${ofNone.id}`).expect(404);
      await tenantAdmin
        .patch(`/webhook_endpoints/${ofNone.id}`, { status: 'disabled' })
        .expect(404);
      await tenantAdmin.delete(`/webhook_endpoints/${ofNone.id}`).expect(404);
      await tenantAdmin.get(`/webhook_endpoints/${ofNone.id}/webhook_deliveries`).expect(404);
      const listed = (await tenantAdmin.get('/webhook_deliveries?limit=100').expect(200)).body
        .data as Row[];
      expect(listed.filter((delivery) => delivery.webhook_endpoint_id === ofNone.id)).toEqual([]);
    }
    const still = await operator.get(`/webhook_endpoints/${ofNone.id}`).expect(200);
    expect(still.body.data.status).toBe('active');
    // The create's ETag is the stored endpoint's: it holds in If-Match at once.
    expect(created.headers.etag).toBe(still.headers.etag);
    await operator
      .patch(`/webhook_endpoints/${ofNone.id}`, { description: 'the operator\u2019s' })
      .set('If-Match', created.headers.etag)
      .expect(200);
  });

  it('tries again after a failure until the receiver takes it, and records the attempts', async () => {
    const service = await start();
    const receiver = new WebhookReceiver((count) => (count < 3 ? 500 : 200));
    const endpoint = await subscribe(service, receiver);
    const product = await createProduct(service);
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.event.subject.id).toBe(product.id);
    await sleep(300);
    const [delivery] = await deliveriesOf(service, endpoint);
    expect(delivery).toMatchObject({ attempt: 4, status: 'succeeded', response_status: 200 });
  });

  it('marks a delivery failed when its retries run out, and moves on to the next', async () => {
    const service = await start();
    const receiver = new WebhookReceiver((count) => (count < 5 ? 503 : 204));
    const endpoint = await subscribe(service, receiver);
    await createProduct(service, 'First');
    const second = await createProduct(service, 'Second');
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.event.subject.id).toBe(second.id);
    await sleep(300);
    const deliveries = await deliveriesOf(service, endpoint);
    expect(
      deliveries.map((delivery) => [delivery.status, delivery.attempt, delivery.response_status]),
    ).toEqual([
      ['failed', 5, 503],
      ['succeeded', 1, 204],
    ]);
    const endpointNow = await admin(service).get(`/webhook_endpoints/${endpoint.id}`).expect(200);
    expect(endpointNow.body.data.status).toBe('active');
  });

  it('disables an endpoint whose deliveries have all failed for five days', async () => {
    // Twenty retries, so that the delivery is still pending when the endpoint comes back.
    const service = await start({ WEBHOOK_RETRY_DELAYS_SECONDS: Array(20).fill('0.2').join(',') });
    let healthy = false;
    const receiver = new WebhookReceiver(() => (healthy ? 204 : 500));
    const endpoint = await subscribe(service, receiver);
    // As if its attempts had failed since six days ago.
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600_000);
    await service.app
      .get(DataSource)
      .getRepository(WebhookEndpoint)
      .update(endpoint.id, { failingSince: sixDaysAgo });
    await createProduct(service);
    let status = 'active';
    for (let tries = 0; status === 'active' && tries < 50; tries++) {
      await sleep(100);
      const now = await admin(service).get(`/webhook_endpoints/${endpoint.id}`).expect(200);
      status = now.body.data.status as string;
    }
    expect(status).toBe('disabled');
    // Disabled, it is attempted no more; active again, its pending delivery goes.
    const attempts = (await deliveriesOf(service, endpoint))[0].attempt;
    await sleep(500);
    expect((await deliveriesOf(service, endpoint))[0].attempt).toBe(attempts);
    const path = `/webhook_endpoints/${endpoint.id}`;
    await admin(service).patch(path, { status: 'active' }).expect(200);
    await sleep(500);
    // Set active again, it has five days to fail afresh.
    expect((await admin(service).get(path).expect(200)).body.data.status).toBe('active');
    expect((await deliveriesOf(service, endpoint))[0].attempt).toBeGreaterThan(attempts as number);
    healthy = true;
    await receiver.waitFor(1);
  });

  it('lets neither writes nor other endpoints wait for an endpoint that never answers', async () => {
    // Its attempts are cut when the service stops, not at the end of this time limit.
    const service = await start({ WEBHOOK_TIMEOUT_MS: '60000' });
    const created: string[] = [];
    const timedCreates = async (count: number, took: number[]) => {
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        created.push((await createProduct(service, `Timed ${i}`)).id);
        took.push(performance.now() - started);
      }
    };
    const median = (took: number[]) => took.sort((a, b) => a - b)[Math.floor(took.length / 2)];
    await timedCreates(10, []); // warm-up
    // Blocks of ten without and with a dead endpoint, in turn, so that the machine's own
    // slowdowns fall on both alike.
    const without: number[] = [];
    const withDead: number[] = [];
    for (let block = 0; block < 10; block++) {
      // Without first, then with, and the other way round, so that neither always comes after.
      if (block % 2 === 0) await timedCreates(10, without);
      const dead = new WebhookReceiver(() => 'hang');
      const endpoint = await subscribe(service, dead);
      await timedCreates(10, withDead);
      await admin(service).delete(`/webhook_endpoints/${endpoint.id}`).expect(200);
      if (block % 2 === 1) await timedCreates(10, without);
    }
    // Writes only add an outbox row; they never wait for an attempt (which would take the
    // whole time limit). The 10 % is a speed figure, for a benchmark on a quiet
    // machine: on a loaded one the ratio of the two medians went from 0.92 to 1.13, so this
    // bound catches a write that waits, not a few percent. Measured on PostgreSQL: SQLite's
    // driver is synchronous, and in its one process the worker's rounds take turns with
    // requests whatever the endpoints do.
    if (process.env.TEST_DATABASE === 'postgres') {
      expect(median(withDead)).toBeLessThanOrEqual(median(without) * 1.5);
    }

    const dead = new WebhookReceiver(() => 'hang');
    await subscribe(service, dead);
    const alive = new WebhookReceiver();
    await subscribe(service, alive);
    created.length = 0;
    await timedCreates(20, []);
    const delivered = (received: Received[]) =>
      created.every((id) => received.some(({ event }) => event.subject.id === id));
    await alive.waitUntil(delivered);
    // Its first delivery is held, and none after it is sent meanwhile.
    expect(dead.hanging).toBe(1);
  }, 60_000);

  onPostgres(
    'delivers each event once and in order with two instances',
    async () => {
      const first = await start();
      const second = await start({}, first);
      const receiver = new WebhookReceiver(() => 204, 2);
      const endpoint = await subscribe(first, receiver);
      const products: Row[] = [];
      for (let i = 0; i < 100; i++) {
        products.push(await createProduct(first, `First ${i}`));
        products.push(await createProduct(second, `Second ${i}`));
      }
      const received = await receiver.waitFor(200, 60_000);
      await sleep(500);
      expect(receiver.received).toHaveLength(200);
      expect(receiver.overlaps).toBe(0);
      // Written one after the other, so recorded, and delivered, in this order.
      expect(received.map(({ event }) => event.subject.id)).toEqual(products.map(({ id }) => id));
      const path = `/webhook_deliveries?filter[webhook_endpoint_id]=${endpoint.id}`;
      const others = await admin(first).get(`${path}&filter[status][ne]=succeeded`).expect(200);
      expect(others.body.data).toEqual([]);
      const repeated = await admin(first).get(`${path}&filter[attempt][ne]=1`).expect(200);
      expect(repeated.body.data).toEqual([]);
    },
    90_000,
  );

  it('counts attempts by outcome on /metrics', async () => {
    const service = await start();
    const receiver = new WebhookReceiver((count) => (count === 0 ? 500 : 204));
    await subscribe(service, receiver);
    await createProduct(service);
    await receiver.waitFor(1);
    await sleep(300);
    const metrics = (await request(service.http).get('/metrics').expect(200)).text;
    expect(metrics).toContain('webhook_attempts_total{outcome="retried"} 1');
    expect(metrics).toContain('webhook_attempts_total{outcome="succeeded"} 1');
    expect(metrics).toMatch(/^webhook_oldest_pending_seconds 0$/m);
  });
});
