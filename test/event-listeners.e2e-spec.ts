import { Injectable, Module } from '@nestjs/common';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { OnCommitted, type CommittedEvent } from '@app/resource-kit';
import { AccountsDomain } from '../apps/api/src/domains/accounts.module';
import { CatalogDomain } from '../apps/api/src/domains/catalog.module';
import { IntegrationDomain } from '../apps/api/src/domains/integration.module';
import { OrderingDomain } from '../apps/api/src/domains/ordering.module';
import { EventPublication } from '../apps/api/src/modules/events/listeners/event-publication.entity';
import { Product } from '../apps/api/src/modules/products/product.entity';
import { scaledMs } from './support/machine-load';
import { startService, waitFor } from './support/service-process';
import { ADMIN_TOKEN, ShopClient, STATIC_ADMIN } from './support/shop-client';
import { DomainApp, startDomains } from './support/domain-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

// SPEC 1.18: listeners of other domains' events run after commit, at least once, in commit
// order per subject, each completion recorded in the event publication registry.

/** A listener of a team's own that throws the first two times it runs on a watched product. */
@Injectable()
class FlakyListener {
  readonly watched = new Set<string>();
  readonly runs: CommittedEvent[] = [];

  @OnCommitted(() => Product, 'updated')
  productUpdated(event: CommittedEvent): void {
    if (!this.watched.has(event.subject.id)) return;
    this.runs.push(event);
    if (this.runs.length <= 2) throw new Error(`not this time (run ${this.runs.length})`);
  }
}

@Module({ providers: [FlakyListener] })
class FlakyListenerModule {}

/** Polls `read` until `done` holds of what it returns (the rounds poll the database). */
async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + scaledMs(15_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

/** A gauge's or counter's value for one listener, from the Prometheus text. */
function sampleOf(metrics: string, name: string, listener: string): number | undefined {
  const line = metrics
    .split('\n')
    .find((text) => text.startsWith(`${name}{listener="${listener}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('listeners after commit, with the event publication registry', () => {
  let domains: DomainApp;
  let shop: ShopClient;
  const publications = () =>
    domains.app
      .get(DataSource)
      .getRepository(EventPublication)
      .find({ order: { position: 'ASC' } });
  const metrics = async () => (await request(domains.http).get('/metrics')).text;

  beforeAll(async () => {
    domains = await startDomains(
      [CatalogDomain, AccountsDomain, OrderingDomain, IntegrationDomain],
      [FlakyListenerModule],
    );
    shop = new ShopClient(domains.http);
  });
  afterAll(() => domains.close());

  it('reprices the cart lines of a product after its update commits (the shop’s listener)', async () => {
    const admin = shop.as(ADMIN_TOKEN);
    const product = (
      await admin.post('/products', { name: 'Kettle', price_cents: 1000, stock: 5 }).expect(201)
    ).body.data;
    const { user, token } = await shop.customer('reprice@example.com');
    const customer = shop.as(token);
    await customer
      .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 2 })
      .expect(201);
    await admin.patch(`/products/${product.id}`, { price_cents: 1500 }).expect(200);
    const cart = await eventually(
      async () =>
        (await customer.get(`/carts/${user.id}`).expect(200)).body.data as Record<string, unknown>,
      (data) => data.subtotal_cents === 3000,
    );
    expect(cart).toMatchObject({ subtotal_cents: 3000, item_count: 2 });
    const lines = (await customer.get(`/carts/${user.id}/cart_items`).expect(200)).body.data;
    expect(lines).toEqual([
      expect.objectContaining({ unit_price_cents: 1500, line_total_cents: 3000 }),
    ]);
    const recorded = await eventually(publications, (rows) =>
      rows.some((row) => row.listener === 'CartItemsService.repriceLines' && row.completedAt),
    );
    expect(recorded.find((row) => row.listener === 'CartItemsService.repriceLines')).toMatchObject({
      subjectType: 'products',
      subjectId: product.id,
      action: 'updated',
      attempts: 1,
    });
  });

  it('runs a listener that throws again until it completes, once, in commit order', async () => {
    const flaky = domains.app.get(FlakyListener);
    const admin = shop.as(ADMIN_TOKEN);
    const product = (
      await admin.post('/products', { name: 'Whisk', price_cents: 700, stock: 5 }).expect(201)
    ).body.data;
    flaky.watched.add(product.id);
    await admin.patch(`/products/${product.id}`, { name: 'Bamboo whisk' }).expect(200);
    await admin.patch(`/products/${product.id}`, { name: 'Bamboo whisk, 100 prongs' }).expect(200);
    const listener = 'FlakyListener.productUpdated';

    // After the first failure: the registry and the metrics show it incomplete, and why.
    await eventually(
      () => flaky.runs.length,
      (runs) => runs >= 1,
    );
    const failed = await eventually(publications, (rows) =>
      rows.some(
        (row) => row.subjectId === product.id && row.listener === listener && row.attempts === 1,
      ),
    );
    expect(
      failed.find((row) => row.subjectId === product.id && row.listener === listener),
    ).toMatchObject({
      completedAt: null,
      lastError: 'not this time (run 1)',
    });
    expect(sampleOf(await metrics(), 'event_publications_incomplete', listener)).toBe(2);

    // Retried with growing waits (1 s, then 2 s); the second event waits for the first.
    const ours = (rows: EventPublication[]) =>
      rows.filter((row) => row.listener === listener && row.subjectId === product.id);
    const done = await eventually(publications, (rows) =>
      ours(rows).every((row) => row.completedAt !== null),
    );
    const mine = ours(done);
    expect(mine.map(({ attempts }) => attempts)).toEqual([3, 1]);
    expect(flaky.runs.map(({ id }) => id)).toEqual([
      mine[0].eventId,
      mine[0].eventId,
      mine[0].eventId,
      mine[1].eventId,
    ]);
    expect(flaky.runs[0]).toEqual({
      id: mine[0].eventId,
      action: 'updated',
      subject: { type: 'products', id: product.id },
    });
    const events = (await admin.get('/events?order=occurred_at&filter[action]=updated').expect(200))
      .body.data as { id: string; subject: { id: string } }[];
    expect(events.filter(({ subject }) => subject.id === product.id).map(({ id }) => id)).toEqual(
      mine.map(({ eventId }) => eventId),
    );

    // Completed once: not run again, nothing incomplete, its failures counted.
    await sleep(scaledMs(1_500));
    expect(flaky.runs).toHaveLength(4);
    const after = await metrics();
    expect(sampleOf(after, 'event_publications_incomplete', listener)).toBeUndefined();
    expect(sampleOf(after, 'event_listener_failures_total', listener)).toBe(2);
  });
});

describe('a listener cut short by a crash', () => {
  const PAUSE_BEFORE_COMPLETION = join(__dirname, 'support', 'pause-before-completion.mjs');
  const listener = 'CartItemsService.repriceLines';
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  async function start(env: Record<string, string> = {}) {
    const service = startService({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(32),
      STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
      PASSWORD_HASH_COST: '12',
      ...database.env,
      ...env,
    });
    const url = `http://127.0.0.1:${await service.listening()}`;
    // supertest, and so ShopClient, takes an address as well as a server.
    return { ...service, url, shop: new ShopClient(url) };
  }

  it('runs it again after a restart, and shows it incomplete in between', async () => {
    const first = await start({ NODE_OPTIONS: `--import ${PAUSE_BEFORE_COMPLETION}` });
    let cartPath: string;
    let customerToken: string;
    try {
      const admin = first.shop.as(ADMIN_TOKEN);
      const product = (
        await admin.post('/products', { name: 'Urn', price_cents: 400, stock: 9 }).expect(201)
      ).body.data;
      const { user, token } = await first.shop.customer('crash@example.com');
      customerToken = token;
      cartPath = `/carts/${user.id}`;
      await first.shop
        .as(token)
        .post('/cart_items', { cart_id: user.id, product_id: product.id, quantity: 3 })
        .expect(201);
      await admin.patch(`/products/${product.id}`, { price_cents: 500 }).expect(200);
      // The listener has done its work; its completion is about to be recorded.
      await waitFor(first.output, /paused before recording a completion/);
      const registry = (await request(first.url).get('/metrics').expect(200)).text;
      expect(sampleOf(registry, 'event_publications_incomplete', listener)).toBe(1);
    } finally {
      first.child.kill('SIGKILL');
    }
    await once(first.child, 'exit');

    const second = await start();
    try {
      const metrics = async () => (await request(second.url).get('/metrics').expect(200)).text;
      await eventually(
        metrics,
        (text) => sampleOf(text, 'event_publications_incomplete', listener) === undefined,
      );
      expect(await metrics()).toContain('\nevent_publications_oldest_incomplete_seconds 0\n');
      const cart = await second.shop.as(customerToken).get(cartPath).expect(200);
      expect(cart.body.data).toMatchObject({ subtotal_cents: 1500, item_count: 3 });
      expect(second.output()).not.toContain('event_listener_failed');
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 60_000);
});
