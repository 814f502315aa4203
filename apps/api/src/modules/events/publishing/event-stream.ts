import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
} from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { EventPublishingConfig } from '../../../config/app-config';

/** One message of the outbox, as the relay hands it over. */
export interface OutgoingMessage {
  readonly id: string;
  readonly subject: string;
  readonly body: string;
}

/** JetStream stored the first `acknowledged` messages of a batch, then failed. */
export class PublishError extends Error {
  constructor(
    readonly acknowledged: number,
    cause: unknown,
  ) {
    super(`JetStream did not acknowledge: ${(cause as Error).message}`, { cause });
  }
}

// How long a publish waits for JetStream's acknowledgement before the batch is tried again.
const ACK_TIMEOUT_MS = 2_000;
// The stream the service creates when it is missing (docs/operations.md, "Published events").
export const STREAM_DEFAULTS = { retentionDays: 7, duplicateWindowMinutes: 10 } as const;

/**
 * The JetStream stream the events go to. The connection is made in the background, tried
 * again every second until it succeeds and re-made forever after, so that a broker that is
 * down at start or later never stops the service.
 */
export class EventStream {
  private readonly logger = new Logger(EventStream.name);
  private readonly closing = new AbortController();
  private readonly connecting: Promise<NatsConnection | undefined>;
  private client?: JetStreamClient;
  private connected = false;

  constructor(private readonly config: EventPublishingConfig & { url: string }) {
    this.connecting = this.connect();
  }

  /** Whether the broker is reachable now; while it is not, the relay leaves the outbox be. */
  get reachable(): boolean {
    return this.connected;
  }

  /**
   * Publishes `messages` in order: pipelined on the one connection, which JetStream stores in
   * the order they arrive. A message the stream already holds under its id (a retry) is
   * acknowledged as a duplicate and stored once. Throws PublishError on the first failure.
   */
  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    const client = await this.jetStream();
    const settled = await Promise.allSettled(
      messages.map((message) =>
        client.publish(message.subject, message.body, {
          msgID: message.id,
          timeout: ACK_TIMEOUT_MS,
        }),
      ),
    );
    const failed = settled.findIndex((result) => result.status === 'rejected');
    if (failed >= 0) {
      throw new PublishError(failed, (settled[failed] as PromiseRejectedResult).reason);
    }
  }

  /** Waits for the acknowledgements in flight, then ends the connection and its retries. */
  async close(): Promise<void> {
    this.closing.abort();
    const connection = await this.connecting;
    if (!connection || connection.isClosed()) return;
    // A drain needs the broker; without it, close at once (the outbox keeps what was not sent).
    if (this.connected) await connection.drain().catch(() => undefined);
    if (!connection.isClosed()) await connection.close();
  }

  private async connect(): Promise<NatsConnection | undefined> {
    let failures = 0;
    while (!this.closing.signal.aborted) {
      try {
        const connection = await connect({
          servers: this.config.url.split(','),
          name: 'shop-api event relay',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1_000,
        });
        this.connected = true;
        void this.watch(connection);
        // The stream exists before the first event, for consumers that start early.
        await this.jetStream(connection).catch((error: Error) =>
          this.logger.warn(`stream ${this.config.stream} not ready: ${error.message}`),
        );
        return connection;
      } catch (error) {
        if (failures++ === 0) {
          this.logger.warn(
            `NATS unreachable (${(error as Error).message}): events wait in the outbox`,
          );
        }
        await sleep(1_000, undefined, { signal: this.closing.signal }).catch(() => undefined);
      }
    }
    return undefined;
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn('NATS unreachable: events wait in the outbox until it returns');
      } else if (status.type === 'reconnect') {
        this.connected = true;
        this.logger.log('NATS reachable again: publishing the events that waited');
      }
    }
  }

  // The client, once the stream is known to exist: created with the service's defaults when
  // missing; an existing stream is the operator's and is left as it is.
  private async jetStream(known?: NatsConnection): Promise<JetStreamClient> {
    if (this.client) return this.client;
    const connection = known ?? (await this.connecting);
    if (!connection) throw new Error('the relay is closing');
    const streams = (await jetstreamManager(connection)).streams;
    const { stream, subjectPrefix } = this.config;
    try {
      await streams.info(stream);
    } catch (error) {
      const missing =
        error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;
      if (!missing) throw error;
      await streams.add({
        name: stream,
        subjects: [`${subjectPrefix}.>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        max_age: nanos(STREAM_DEFAULTS.retentionDays * 24 * 3600 * 1000),
        duplicate_window: nanos(STREAM_DEFAULTS.duplicateWindowMinutes * 60 * 1000),
      });
      this.logger.log(`created stream ${stream} for ${subjectPrefix}.>`);
    }
    this.client = jetstream(connection, { timeout: ACK_TIMEOUT_MS });
    return this.client;
  }
}
