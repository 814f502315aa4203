import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { InFlight } from './in-flight';

// How long the service keeps its port open, answering 503, before it stops accepting: a
// client whose connection or request was already on its way (a TCP handshake retried after
// a lost SYN takes a second) gets an answer instead of a reset.
const LINGER_MS = 1_000;
// How long the 503 answers of requests cut at the end of the grace period get to leave.
const FLUSH_MS = 500;

/**
 * Stops the HTTP side of the service without dropping what clients sent: requests in flight
 * finish and then close their connection, idle keep-alive connections close, requests that
 * arrive meanwhile get 503, and whatever still runs when the grace period ends is answered
 * 503 rather than reset.
 */
export class HttpDrain {
  private readonly inFlight = new InFlight<Response>();
  private draining = false;
  private onIdle?: () => void;

  constructor(private readonly server: Server) {}

  /** Express middleware, first in the chain: counts each request in, or refuses it while draining. */
  readonly admit = (_request: Request, response: Response, next: NextFunction): void => {
    if (this.draining) return answerUnavailable(response, 'the service is shutting down');
    const entry = this.inFlight.add(response);
    response.once('close', () => {
      entry.remove();
      if (this.inFlight.size === 0) this.onIdle?.();
    });
    next();
  };

  /** Drains within `graceMs`; resolves to the number of requests that had to be cut. */
  async drain(graceMs: number): Promise<number> {
    this.draining = true;
    for (const response of this.inFlight) {
      if (!response.headersSent) response.set('Connection', 'close');
    }
    const deadline = Date.now() + graceMs;
    await sleep(Math.min(LINGER_MS, graceMs));
    // Stops accepting connections and closes the idle ones.
    this.server.close();
    if (await this.settled(deadline - Date.now())) return 0;
    const cut = [...this.inFlight];
    for (const response of cut)
      answerUnavailable(response, 'the request was cut short by a restart');
    await this.settled(FLUSH_MS);
    this.server.closeAllConnections();
    return cut.length;
  }

  private settled(withinMs: number): Promise<boolean> {
    if (this.inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), withinMs);
      this.onIdle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

// 503 in the error envelope; the client may retry at once, on this service's next instance.
function answerUnavailable(response: Response, reason: string): void {
  if (response.headersSent) return void response.destroy();
  response
    .status(503)
    .set({ 'Retry-After': '1', Connection: 'close' })
    .json({ error: [`${reason}; try again`] });
}
