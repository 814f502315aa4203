import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver got it, after its signature was verified. */
export interface Received {
  readonly id: string;
  readonly event: { id: string; action: string; subject: { type: string; id: string } };
}

/** What the receiver answers a request with: a status, or nothing at all (it hangs). */
export type Answer = number | 'hang';

/**
 * An integrator's endpoint on this machine: verifies every delivery with the Standard Webhooks
 * library (a bad signature is a failed test), keeps those it answered 2xx, and notes when two
 * deliveries of one event were in flight at once.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  /** Deliveries that arrived while another delivery of this endpoint was unanswered. */
  overlaps = 0;
  private inFlight = 0;
  private verifier?: Webhook;
  private readonly server: Server;
  private readonly held = new Set<IncomingMessage>();

  constructor(
    private readonly answer: (request: number) => Answer = () => 204,
    private readonly delayMs = 0,
  ) {
    let count = 0;
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (this.inFlight++ > 0) this.overlaps++;
        const finish = (status: number) => {
          this.inFlight--;
          const body = Buffer.concat(chunks).toString();
          const accepted = status >= 300 || this.verified(body, request.headers);
          response.writeHead(accepted ? status : 400).end('{"ok":true}');
        };
        const answer = this.answer(count++);
        if (answer === 'hang') return void this.held.add(request);
        setTimeout(() => finish(answer), this.delayMs);
      });
    });
  }

  /** Starts listening; the secret arrives once the endpoint is created. */
  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Requests it holds unanswered (it answers `'hang'`). */
  get hanging(): number {
    return this.held.size;
  }

  useSecret(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  /** Resolves once `count` deliveries were received, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 20_000): Promise<Received[]> {
    return this.waitUntil((received) => received.length >= count, timeoutMs);
  }

  /** Resolves once what was received satisfies `done`, or rejects after `timeoutMs`. */
  async waitUntil(done: (received: Received[]) => boolean, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.received)) {
      if (Date.now() > deadline) {
        throw new Error(`still waiting after ${this.received.length} deliveries`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.received;
  }

  async close(): Promise<void> {
    for (const request of this.held) request.socket.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  // Kept when its signature verifies; otherwise noted in `refused` and answered 400.
  private verified(body: string, headers: IncomingMessage['headers']): boolean {
    try {
      const payload = this.verifier!.verify(body, headers as Record<string, string>) as {
        data: Received['event'];
      };
      this.received.push({ id: headers['webhook-id'] as string, event: payload.data });
      return true;
    } catch (error) {
      this.refused.push((error as Error).message);
      return false;
    }
  }
}
