import { Inject, Injectable } from '@nestjs/common';
import { KitError } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { driverCode } from './database-errors';

// Refused at once rather than queued: a queue of table scans only grows under a flood.
const BUSY = new KitError(
  'unavailable',
  [
    'too many searches that no index serves are running; try again shortly, or filter and order by index-backed members (the OpenAPI document marks them)',
  ],
  { 'Retry-After': '1' },
);
// Stopped by its statement timeout: the search, not the database, is the cause.
const TOO_LONG = new KitError(
  'unavailable',
  [
    'the search took too long and was stopped; narrow it, or filter and order by index-backed members (the OpenAPI document marks them)',
  ],
  { 'Retry-After': '5' },
);
// PostgreSQL's query_canceled: a statement timeout ran out.
const QUERY_CANCELED = '57014';
// Searches found not to narrow, remembered per instance, at most so many (oldest forgotten).
const BROAD_SEARCHES = 1_000;

/** How a costly read runs: its statement timeout, when shorter than the service's. */
export interface CostlyRead {
  readonly statementTimeoutMs?: number;
}

/** Thrown by a search read that ran past its budget: the list goes on as a costly query. */
export class SearchOverBudget extends Error {
  constructor() {
    super('the search index did not narrow the search within its budget');
  }
}

/** Whether a failure is a statement stopped by its timeout. */
export function isStatementTimeout(error: unknown): boolean {
  return driverCode(error) === QUERY_CANCELED;
}

/**
 * The per-instance bound on queries that no index serves (SPEC 1.6): anonymous callers run at
 * most `concurrency` at once and signed-in ones at most `signedInConcurrency`, each in a pool
 * of their own, so that a flood of anonymous searches cannot take what signed-in callers
 * need; beyond it the answer is 503 with Retry-After. Anonymous ones also run under a shorter
 * statement timeout. A statement stopped by its timeout is answered as the search's fault.
 */
@Injectable()
export class CostlyQueries {
  private readonly running = { anonymous: 0, signedIn: 0 };
  private readonly broad = new Set<string>();
  /** Costly lists refused, by why: the bound was full, or the statement timed out. */
  readonly refused = { busy: 0, timedOut: 0 };

  constructor(@Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions) {}

  async run<R>(anonymous: boolean, read: (settings: CostlyRead) => Promise<R>): Promise<R> {
    const { concurrency, signedInConcurrency, anonymousStatementTimeoutMs } =
      this.options.costlyQueries;
    const pool = anonymous ? 'anonymous' : 'signedIn';
    if (this.running[pool] >= (anonymous ? concurrency : signedInConcurrency)) {
      this.refused.busy += 1;
      throw BUSY;
    }
    this.running[pool] += 1;
    try {
      return await read(anonymous ? { statementTimeoutMs: anonymousStatementTimeoutMs } : {});
    } catch (error) {
      if (!isStatementTimeout(error)) throw error;
      this.refused.timedOut += 1;
      throw TOO_LONG;
    } finally {
      this.running[pool] -= 1;
    }
  }

  /** Whether the search named `key` was found not to narrow (`rememberBroad`). */
  isBroad(key: string): boolean {
    return this.broad.has(key);
  }

  /** Remembers a search that ran past its budget: from now on it is costly at once. */
  rememberBroad(key: string): void {
    if (this.broad.size >= BROAD_SEARCHES) this.broad.delete(this.broad.values().next().value!);
    this.broad.add(key);
  }
}
