import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { ReceiverPolicy } from './receiver-address';

/** What one attempt came to: the answer's status, or why none came. */
export interface AttemptOutcome {
  readonly status?: number;
  readonly failure?: string;
  /** Cut short because the service stops: it counts as no attempt. */
  readonly interrupted?: boolean;
  readonly durationMs: number;
}

/** Whether the receiver took the delivery: any 2xx answer. */
export function succeeded(outcome: AttemptOutcome): boolean {
  return outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
}

/** What went wrong with an attempt, in a few words. */
export function failureOf(outcome: AttemptOutcome): string {
  return outcome.failure ?? `answered ${outcome.status}`;
}

export interface SignedDelivery {
  readonly url: string;
  readonly secret: string;
  /** The event's id: `webhook-id`, so that a receiver recognises a repeat. */
  readonly messageId: string;
  readonly payload: string;
}

/**
 * One POST of a delivery, signed as Standard Webhooks says (with its own library), to an
 * address the policy allows, within `timeoutMs` from the first byte of the lookup to the
 * answer's status. The answer's body is never read: only its status is kept.
 */
export function attemptDelivery(
  delivery: SignedDelivery,
  policy: ReceiverPolicy,
  timeoutMs: number,
  stopping: AbortSignal,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const target = new URL(delivery.url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const sentAt = new Date();
  const signature = new Webhook(delivery.secret).sign(delivery.messageId, sentAt, delivery.payload);
  // A literal address never reaches `lookup`: the policy judges it here.
  const refused = policy.literalProblem(target.hostname);
  if (refused) return Promise.resolve({ failure: refused, durationMs: took() });
  return new Promise((resolve) => {
    const outgoing = send(target, {
      method: 'POST',
      lookup: policy.lookup,
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'shop-api-webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    outgoing.on('response', (answer) => {
      answer.destroy();
      resolve({ status: answer.statusCode, durationMs: took() });
    });
    outgoing.on('error', (error: Error) => {
      const failure =
        error.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : error.message;
      resolve({ failure, durationMs: took() });
    });
    outgoing.end(delivery.payload);
  });
}
