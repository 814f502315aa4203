// A consumer of the shop's published events, as another service (search, mail, analytics)
// would write it: a durable JetStream consumer, so that events published while this service
// is down wait in the stream for it. See README.md beside this file.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** The event as the shop's GET /events/{id} shows it (the message body's `data`). */
export interface ShopEvent {
  type: 'events';
  id: string;
  action: 'created' | 'updated' | 'deleted';
  subject: { type: string; id: string };
  user_id: string;
  occurred_at: string;
  created_at: string;
  updated_at: string;
}

export interface Delivery {
  /** `<prefix>.<type>.<action>`, e.g. `shop.events.orders.created`. */
  subject: string;
  /** The event id, also the message id the stream de-duplicates by. */
  messageId: string;
  event: ShopEvent;
}

export interface ConsumerOptions {
  /** The stream the shop publishes to (its NATS_STREAM, `SHOP_EVENTS` by default). */
  stream: string;
  /** This service's consumer name: the stream remembers what it has acknowledged. */
  durable: string;
  /** Which events, e.g. `shop.events.orders.>`; all of the stream when unset. */
  filterSubject?: string;
}

/**
 * Hands every event to `handle` in stream order and acknowledges it once `handle` returns;
 * an event whose handling throws is delivered again after five seconds. Delivery is at least
 * once: a handler that must not act twice keeps the event ids it has handled.
 * Waits for the stream when the shop has not created it yet. Ends when `signal` aborts.
 */
export async function consumeShopEvents(
  connection: NatsConnection,
  options: ConsumerOptions,
  handle: (delivery: Delivery) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<void> {
  if (!(await durableConsumer(connection, options, signal))) return;
  const consumer = await jetstream(connection).consumers.get(options.stream, options.durable);
  const messages = await consumer.consume();
  signal?.addEventListener('abort', () => void messages.close(), { once: true });
  for await (const message of messages) {
    try {
      await handle({
        subject: message.subject,
        messageId: message.headers?.get('Nats-Msg-Id') ?? '',
        event: message.json<{ data: ShopEvent }>().data,
      });
      message.ack();
    } catch {
      message.nak(5_000);
    }
  }
}

// Adding a consumer that exists with the same configuration changes nothing. A stream not
// there yet, or one the server is still setting up (JetStream answers such a request with a
// server error, "invalid stream" say), is waited for. False: aborted.
async function durableConsumer(
  connection: NatsConnection,
  options: ConsumerOptions,
  signal?: AbortSignal,
): Promise<boolean> {
  const manager = await jetstreamManager(connection);
  while (!signal?.aborted) {
    try {
      await manager.consumers.add(options.stream, {
        durable_name: options.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: options.filterSubject,
      });
      return true;
    } catch (error) {
      if (!streamNotReady(error)) throw error;
      await sleep(1_000, undefined, { signal }).catch(() => undefined);
    }
  }
  return false;
}

function streamNotReady(error: unknown): boolean {
  if (!(error instanceof JetStreamApiError)) return false;
  return error.code === JetStreamApiCodes.StreamNotFound || error.status >= 500;
}
