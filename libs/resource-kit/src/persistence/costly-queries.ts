import { Inject, Injectable } from '@nestjs/common';
import { KitError } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';

// Refused at once rather than queued: a queue of table scans only grows under a flood.
const BUSY = new KitError(
  'unavailable',
  [
    'too many searches that no index serves are running; try again shortly, or filter and order by index-backed members (the OpenAPI document marks them)',
  ],
  { 'Retry-After': '1' },
);

/** How a costly read runs: its statement timeout, when shorter than the service's. */
export interface CostlyRead {
  readonly statementTimeoutMs?: number;
}

/**
 * The per-instance bound on queries that no index serves (SPEC 1.6): at most `concurrency`
 * run at once, beyond which the answer is 503 with Retry-After; anonymous ones also run
 * under a shorter statement timeout.
 */
@Injectable()
export class CostlyQueries {
  private running = 0;

  constructor(@Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions) {}

  async run<R>(anonymous: boolean, read: (settings: CostlyRead) => Promise<R>): Promise<R> {
    const { concurrency, anonymousStatementTimeoutMs } = this.options.costlyQueries;
    if (this.running >= concurrency) throw BUSY;
    this.running += 1;
    try {
      return await read(anonymous ? { statementTimeoutMs: anonymousStatementTimeoutMs } : {});
    } finally {
      this.running -= 1;
    }
  }
}
