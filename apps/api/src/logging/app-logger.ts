import type { LoggerService } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** The id of the request being served, for every line logged while serving it. */
export const currentRequestId = new AsyncLocalStorage<string>();

/** JSON lines on standard output; a line written during a request carries its `req.id`. */
export function createLogger(
  level: AppConfig['logLevel'],
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    // Called only for lines that are written, so a level that is off costs nothing here.
    mixin: () => {
      const id = currentRequestId.getStore();
      return id === undefined ? {} : { req: { id } };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

// Nest's start-up chatter (modules loaded, routes mapped, "started"): detail for debugging.
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);
// Nest's report of a failed start, with its stack and the driver's error fields: detail for
// debugging too, since main.ts says why the start failed in one line.
const START_FAILURE = 'ExceptionHandler';

/**
 * Nest's logger on pino: `context` names the source; object messages become fields. Nest's
 * own start-up lines are logged at `debug`.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest.at(-1);
    const chatter = typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
    this.write(chatter ? 'debug' : 'info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write(rest.at(-1) === START_FAILURE ? 'debug' : 'error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  // Nest passes (message, ...details, context); an error's stack comes as a detail.
  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = typeof rest.at(-1) === 'string' ? rest.at(-1) : undefined;
    const details = context === undefined ? rest : rest.slice(0, -1);
    const stack = details.find((detail) => typeof detail === 'string');
    if (message instanceof Error) {
      this.pino[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ context, ...message });
    } else {
      this.pino[level]({ context, ...(stack !== undefined && { stack }) }, String(message));
    }
  }
}
