import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { SETTINGS } from './shop.wire';

/** The baselines' logs: pino at the service's level, JSON lines on standard output. */
export const logger = pino({ level: SETTINGS.logLevel });

/**
 * Gives the request an X-Request-Id and, when the response ends, one "request completed"
 * line at info (error for a 5xx), written only when that level is on, as the service does.
 */
export function logRequest(request: IncomingMessage, response: ServerResponse): void {
  const id = randomUUID();
  const started = performance.now();
  response.setHeader('X-Request-Id', id);
  response.on('close', () => {
    const level = response.statusCode >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        req: { id, method: request.method, path: request.url },
        res: { status: response.statusCode },
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request completed',
    );
  });
}
