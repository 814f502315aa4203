import type { Tracer } from '@opentelemetry/api';
import type { KeyCasing } from './metadata/naming';
import type { PageLimits, PaginationStyle } from './query/pagination';

/** What a service tells the kit once, in ResourceKitModule.forRoot. */
export interface ResourceKitOptions {
  /** Member of error responses: `error` (default) or `errors`. */
  errorKey?: 'error' | 'errors';
  /** Key casing of every member on the wire (default snake_case). */
  keyCasing?: KeyCasing;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** `cursor` (keyset, default), `offset` (offset+limit) or `page` (page+per_page). */
  pagination?: PaginationStyle;
  /** Page size when the client gives none, and the largest it may ask for (25 and 100). */
  pageSize?: PageLimits;
  /** The prefix of every resource path (the service's global prefix), for the OpenAPI document. */
  basePath?: string;
  /** How long an Idempotency-Key and its stored answer are kept, in seconds (24 hours). */
  idempotencyKeyTtlSeconds?: number;
  /**
   * Check every response against its declared output shape before it is sent (default
   * true). Turning it off saves that work per response; a response off its declaration
   * then reaches the client instead of becoming a 500.
   */
  validateOutput?: boolean;
  /**
   * Name the kit's prepared statements (reads and writes) on PostgreSQL, so that each
   * connection parses and plans one once (default true). Turn off behind a pooler in
   * transaction mode (PgBouncer's `pool_mode = transaction`), where the next statement may run
   * on a server connection that never saw the name: statements are then unnamed.
   */
  namedStatements?: boolean;
  /**
   * Queries that no index serves (SPEC 1.6): at most `concurrency` of anonymous callers at
   * once per instance (default 1) and `signedInConcurrency` of signed-in callers (default 1,
   * a pool of their own); beyond it, 503 with Retry-After. Each runs without parallel workers,
   * and anonymous ones under `anonymousStatementTimeoutMs` (default 1,000; PostgreSQL). A
   * search the trigram index serves reads its matches under `searchBudgetMs` (default 250;
   * PostgreSQL): past it, the index did not narrow the search, which then runs as costly.
   */
  costlyQueries?: {
    concurrency?: number;
    signedInConcurrency?: number;
    anonymousStatementTimeoutMs?: number;
    searchBudgetMs?: number;
  };
  /** Title and version of the OpenAPI document. */
  title?: string;
  version?: string;
  /**
   * Traces each operation as a span `<verb> <type>` (OpenTelemetry) under the request's.
   * Unset (the default): no span, and nothing on the request path to pay for it.
   */
  tracer?: Tracer;
}

export type ResolvedKitOptions = Readonly<
  Required<Omit<ResourceKitOptions, 'tracer' | 'costlyQueries'>> &
    Pick<ResourceKitOptions, 'tracer'> & {
      costlyQueries: Readonly<Required<NonNullable<ResourceKitOptions['costlyQueries']>>>;
    }
>;

export const RESOURCE_KIT_OPTIONS = Symbol('RESOURCE_KIT_OPTIONS');

export function resolveKitOptions(options: ResourceKitOptions): ResolvedKitOptions {
  return Object.freeze({
    errorKey: options.errorKey ?? 'error',
    keyCasing: options.keyCasing ?? 'snake_case',
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    pagination: options.pagination ?? 'cursor',
    pageSize: Object.freeze({ ...(options.pageSize ?? { default: 25, max: 100 }) }),
    basePath: options.basePath ?? '/',
    idempotencyKeyTtlSeconds: options.idempotencyKeyTtlSeconds ?? 24 * 3600,
    validateOutput: options.validateOutput ?? true,
    namedStatements: options.namedStatements ?? true,
    costlyQueries: Object.freeze({
      concurrency: options.costlyQueries?.concurrency ?? 1,
      signedInConcurrency: options.costlyQueries?.signedInConcurrency ?? 1,
      anonymousStatementTimeoutMs: options.costlyQueries?.anonymousStatementTimeoutMs ?? 1_000,
      searchBudgetMs: options.costlyQueries?.searchBudgetMs ?? 250,
    }),
    title: options.title ?? 'API',
    version: options.version ?? '1.0.0',
    tracer: options.tracer,
  });
}

/** Paths the kit serves outside the resource base path (exclude them from a global prefix). */
export const OPERATIONS_PATHS = ['healthz', 'readyz', 'openapi.json', 'docs', 'docs/:asset'];
