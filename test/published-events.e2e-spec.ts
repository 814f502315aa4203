import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import asyncApiSpecs from '@asyncapi/specs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { consumeShopEvents, type Delivery } from '../examples/events-consumer/consumer';
import { OutboxEntry } from '../apps/api/src/modules/events/publishing/outbox-entry.entity';
import { ADMIN_TOKEN, ShopClient } from './support/shop-client';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

// The machine's NATS server with JetStream, as the service would use it (SPEC 1.14). Every test
// publishes to a stream and subjects of its own, and deletes the stream afterwards.
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? it : it.skip;

describe('events published to NATS JetStream', () => {
  let nats: NatsConnection;
  const running: TestApp[] = [];
  const streams: string[] = [];

  beforeAll(async () => {
    nats = await connect({ servers: NATS_URL, timeout: 3_000 });
  });
  afterEach(async () => {
    for (const service of running.splice(0).reverse()) await service.close();
    const manager = await jetstreamManager(nats);
    // A service that never reached NATS created none.
    for (const stream of streams.splice(0)) await manager.streams.delete(stream).catch(() => false);
  });
  afterAll(() => nats.drain());

  /** The service's publishing settings for a stream of this test's own. */
  const publishing = (url = NATS_URL) => {
    const name = randomBytes(5).toString('hex');
    streams.push(`E2E_${name}`);
    return {
      stream: `E2E_${name}`,
      prefix: `e2e.${name}.events`,
      env: { NATS_URL: url, NATS_STREAM: `E2E_${name}`, NATS_SUBJECT_PREFIX: `e2e.${name}.events` },
    };
  };
  const start = async (env: Record<string, string>, shared?: TestApp) => {
    const service = await startTestApp(env, { database: shared?.database });
    running.push(service);
    return service;
  };

  /** Every event, as GET /events shows them to an administrator, in the order they happened. */
  const allEvents = async (service: TestApp) => {
    const events: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await new ShopClient(service.http)
        .as(ADMIN_TOKEN)
        .get(`/events?limit=100${query}`)
        .expect(200);
      events.push(...(page.body.data as Record<string, unknown>[]));
      cursor = page.body.cursor as string | null;
    } while (cursor);
    return events;
  };

  /** Reads `count` messages of `stream` with a durable consumer, as another service would. */
  const receive = async (stream: string, count: number, timeoutMs = 15_000) => {
    const deliveries: Delivery[] = [];
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), timeoutMs);
    await consumeShopEvents(
      nats,
      { stream, durable: 'e2e' },
      (delivery) => {
        deliveries.push(delivery);
        if (deliveries.length === count) stop.abort();
      },
      stop.signal,
    );
    clearTimeout(timer);
    return deliveries;
  };
  const streamInfo = async (stream: string): Promise<StreamInfo> =>
    (await jetstreamManager(nats)).streams.info(stream);

  const metric = async (service: TestApp, name: string) => {
    const text = (await request(service.http).get('/metrics').expect(200)).text;
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
    return Number(line?.split(' ')[1]);
  };

  /** The metric's value once it equals `expected`, or its last value after five seconds. */
  const settled = async (service: TestApp, name: string, expected: number) => {
    let value = await metric(service, name);
    for (let tries = 0; value !== expected && tries < 50; tries++) {
      await sleep(100);
      value = await metric(service, name);
    }
    return value;
  };

  /** A customer's visit, every write of which is an event: sign-up to a cancelled order. */
  const checkout = async (service: TestApp) => {
    const shop = new ShopClient(service.http);
    const admin = shop.as(ADMIN_TOKEN);
    const product = (
      await admin.post('/products', { name: 'Teapot', price_cents: 2_500, stock: 5 }).expect(201)
    ).body.data;
    await admin.patch(`/products/${product.id}`, { price_cents: 2_400 }).expect(200);
    const { user, token } = await shop.customer(
      `buyer-${randomBytes(4).toString('hex')}@example.com`,
    );
    const customer = shop.as(token);
    const item = (
      await customer
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 2 })
        .expect(201)
    ).body.data;
    await customer.patch(`/cart_items/${item.id}`, { quantity: 1 }).expect(200);
    const order = (await customer.post('/orders', { cart_item_ids: [item.id] }).expect(201)).body
      .data;
    await customer.patch(`/orders/${order.id}`, { status: 'cancelled' }).expect(200);
  };

  it('publishes every write of a checkout once, in order, on its subject, as GET /events/{id} shows it', async () => {
    const { stream, prefix, env } = publishing();
    const service = await start(env);
    await checkout(service);
    const events = await allEvents(service);
    expect(
      events.map((event) => `${(event.subject as { type: string }).type} ${String(event.action)}`),
    ).toEqual([
      'products created',
      'products updated',
      'users created',
      'sessions created',
      'cart_items created',
      'cart_items updated',
      'orders created',
      'orders updated',
    ]);

    const deliveries = await receive(stream, events.length);
    expect(deliveries.map((delivery) => delivery.messageId)).toEqual(events.map((e) => e.id));
    for (const [index, delivery] of deliveries.entries()) {
      const event = events[index] as { id: string; action: string; subject: { type: string } };
      expect(delivery.subject).toBe(`${prefix}.${event.subject.type}.${event.action}`);
      const shown = await new ShopClient(service.http)
        .as(ADMIN_TOKEN)
        .get(`/events/${event.id}`)
        .expect(200);
      expect(delivery.event).toEqual(shown.body.data);
    }
    // Once each: the stream holds exactly these messages.
    const info = await streamInfo(stream);
    expect(info.state.messages).toBe(events.length);
    // Created by the service, as docs/operations.md describes it.
    expect(info.config).toMatchObject({
      subjects: [`${prefix}.>`],
      retention: 'limits',
      storage: 'file',
      max_age: 7 * 24 * 3600 * 1e9,
      duplicate_window: 10 * 60 * 1e9,
    });
    // The relay removes the rows once the stream has acknowledged them.
    expect(await settled(service, 'events_outbox_pending', 0)).toBe(0);
    expect(await metric(service, 'events_published_total')).toBe(events.length);

    // The AsyncAPI document describes every message as it was received.
    const asyncApi = (await request(service.http).get('/asyncapi.json').expect(200)).body as {
      channels: Record<string, { address: string }>;
      components: { messages: { event: { payload: object } }; schemas: object };
    };
    const addresses = Object.values(asyncApi.channels).map((channel) => channel.address);
    const payload = addFormats(new Ajv({ strict: false })).compile({
      ...asyncApi.components.messages.event.payload,
      components: asyncApi.components,
    });
    for (const delivery of deliveries) {
      expect(addresses).toContain(delivery.subject);
      expect(payload({ data: delivery.event })).toBe(true);
    }
  });

  it('describes the published messages in an AsyncAPI 3 document derived from the declarations', async () => {
    const { prefix, env } = publishing();
    const service = await start(env);
    const document = (await request(service.http).get('/asyncapi.json').expect(200)).body as {
      asyncapi: string;
      channels: Record<string, { address: string }>;
      operations: Record<string, { action: string }>;
    };
    // The AsyncAPI schema bundles JSON Schema draft-07's meta-schema: Ajv's own stays out.
    const validate = new Ajv({
      strict: false,
      validateFormats: false,
      meta: false,
      validateSchema: false,
    }).compile(asyncApiSpecs.schemas['3.0.0']);
    expect(validate(document)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(document.asyncapi).toBe('3.0.0');
    // A channel for each write a resource declares; none for the read-only resources.
    expect(document.channels['orders.created'].address).toBe(`${prefix}.orders.created`);
    expect(document.channels['orders.updated'].address).toBe(`${prefix}.orders.updated`);
    expect(document.channels['orders.deleted']).toBeUndefined();
    expect(document.channels['sessions.deleted'].address).toBe(`${prefix}.sessions.deleted`);
    expect(Object.keys(document.channels).some((name) => name.startsWith('order_items.'))).toBe(
      false,
    );
    expect(Object.values(document.operations).every((op) => op.action === 'receive')).toBe(true);
  });

  it('takes writes at normal speed while NATS is unreachable, and publishes them all once it returns', async () => {
    const broker = new URL(NATS_URL);
    const proxy = await TcpProxy.open(broker.hostname, Number(broker.port || 4222));
    try {
      const { stream, env } = publishing(`nats://127.0.0.1:${proxy.port}`);
      const service = await start(env);
      const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
      await admin.post('/products', { name: 'Before', price_cents: 100, stock: 1 }).expect(201);
      await receive(stream, 1);
      expect(await settled(service, 'events_outbox_pending', 0)).toBe(0);

      await proxy.cut();
      for (let index = 0; index < 5; index++) {
        const started = Date.now();
        await admin
          .post('/products', { name: `During ${index}`, price_cents: 100, stock: 1 })
          .expect(201);
        // A write never waits for the broker (which would take the 2 s acknowledgement wait).
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      await sleep(2_500);
      expect(await metric(service, 'events_outbox_pending')).toBe(5);
      expect(await metric(service, 'events_outbox_lag_seconds')).toBeGreaterThan(2);

      await proxy.reopen();
      // The same consumer again: it receives what it has not acknowledged yet.
      const events = await allEvents(service);
      const deliveries = await receive(stream, 5);
      expect(deliveries.map((delivery) => delivery.messageId)).toEqual(
        events.slice(1).map((event) => event.id),
      );
      expect((await streamInfo(stream)).state.messages).toBe(6);
      expect(await settled(service, 'events_outbox_pending', 0)).toBe(0);
      expect(await metric(service, 'events_outbox_lag_seconds')).toBe(0);
    } finally {
      await proxy.cut();
    }
  }, 45_000);

  it('starts, and takes writes, while NATS is unreachable from the start', async () => {
    const broker = new URL(NATS_URL);
    const proxy = await TcpProxy.open(broker.hostname, Number(broker.port || 4222));
    await proxy.cut();
    try {
      const { stream, env } = publishing(`nats://127.0.0.1:${proxy.port}`);
      const service = await start(env);
      const admin = new ShopClient(service.http).as(ADMIN_TOKEN);
      await admin.post('/products', { name: 'Early', price_cents: 100, stock: 1 }).expect(201);
      await proxy.reopen();
      const [delivery] = await receive(stream, 1);
      expect(delivery.event.action).toBe('created');
    } finally {
      await proxy.cut();
    }
  }, 30_000);

  // The writes wait in the outbox while NATS is away, so that both relays find the same rows
  // when it returns: only one may send them.
  onPostgres(
    'with two instances on one database, publishes each event once',
    async () => {
      const broker = new URL(NATS_URL);
      const proxy = await TcpProxy.open(broker.hostname, Number(broker.port || 4222));
      try {
        const { stream, env } = publishing(`nats://127.0.0.1:${proxy.port}`);
        const first = await start(env);
        const second = await start(env, first);
        const instances = [first, second];
        await proxy.cut();
        await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            new ShopClient(instances[index % 2].http)
              .as(ADMIN_TOKEN)
              .post('/products', { name: `Product ${index}`, price_cents: 100, stock: 1 })
              .expect(201),
          ),
        );
        await proxy.reopen();
        const events = await allEvents(first);
        expect(events).toHaveLength(40);
        // Concurrent writes: in no order that GET /events could show (docs/operations.md).
        const deliveries = await receive(stream, 40);
        expect(new Set(deliveries.map((delivery) => delivery.messageId))).toEqual(
          new Set(events.map((event) => event.id)),
        );
        expect((await streamInfo(stream)).state.messages).toBe(40);
        expect(await settled(first, 'events_outbox_pending', 0)).toBe(0);
        // Each event was sent by one relay only: the instances' counts add up to the events.
        const sent = await Promise.all(
          instances.map((instance) => metric(instance, 'events_published_total')),
        );
        expect(sent[0] + sent[1]).toBe(40);
      } finally {
        await proxy.cut();
      }
    },
    30_000,
  );

  it('records no outbox rows and publishes nothing without NATS_URL', async () => {
    const service = await start({});
    await new ShopClient(service.http)
      .as(ADMIN_TOKEN)
      .post('/products', { name: 'Quiet', price_cents: 100, stock: 1 })
      .expect(201);
    expect(await service.app.get(DataSource).getRepository(OutboxEntry).count()).toBe(0);
    const text = (await request(service.http).get('/metrics').expect(200)).text;
    expect(text).not.toContain('events_outbox_pending');
    expect(text).not.toContain('events_published_total');
  });
});
