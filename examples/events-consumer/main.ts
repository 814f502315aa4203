// Prints every event of the shop as it is published. From the repository root:
//   NATS_URL=nats://127.0.0.1:4222 node examples/events-consumer/main.ts
import { connect } from '@nats-io/transport-node';
import { consumeShopEvents } from './consumer.ts';

const connection = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
const stopping = new AbortController();
process.once('SIGINT', () => stopping.abort());
await consumeShopEvents(
  connection,
  { stream: process.env.NATS_STREAM ?? 'SHOP_EVENTS', durable: 'example-printer' },
  ({ subject, event }) => console.log(subject, event.subject.id, event.occurred_at),
  stopping.signal,
);
await connection.drain();
