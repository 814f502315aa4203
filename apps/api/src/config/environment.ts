import { plainToInstance, Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  validateSync,
  ValidationError,
} from 'class-validator';
import { IsOriginList, IsTrustProxy } from './http-edges.validators';

// With stopAtFirstError, the decorator nearest the property is checked first.

/** Where the embedded database lives unless SQLITE_PATH says otherwise. */
export const DEFAULT_SQLITE_PATH = './data/api.sqlite';
export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const JWT_ALGORITHMS = ['HS256', 'RS256', 'ES256'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const SWITCH = ['on', 'off'] as const;
/** What sits between the service and PostgreSQL: nothing, or PgBouncer in transaction mode. */
export const DATABASE_POOLERS = ['none', 'transaction'] as const;

/** The environment variables the service reads, with their rules. Documented in README.md. */
export class Environment {
  // The build run with node itself is production; `npm start` says development (SPEC 1.12).
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'production';

  @IsIntegerFrom(0, 65535)
  PORT = 3000;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: 'DATABASE_SCHEMA must be a lower-case PostgreSQL identifier',
  })
  DATABASE_SCHEMA?: string;

  @IsIn(DATABASE_POOLERS)
  DATABASE_POOLER: (typeof DATABASE_POOLERS)[number] = 'none';

  // Hot standbys for anonymous reads (SPEC 1.13), comma-separated.
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^\s,]+(\s*,\s*postgres(ql)?:\/\/[^\s,]+)*$/, {
    message: 'DATABASE_REPLICA_URLS must be comma-separated postgres:// URLs',
  })
  DATABASE_REPLICA_URLS?: string;

  @IsIntegerFrom(100, 10 * 60_000)
  DATABASE_REPLICA_MAX_LAG_MS = 5_000;

  @IsString()
  @MinLength(1)
  SQLITE_PATH = DEFAULT_SQLITE_PATH;

  @Matches(/^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?$/, {
    message: 'API_BASE_PATH must start with "/" and hold only URL path segments, e.g. /api',
  })
  API_BASE_PATH = '/';

  @IsOptional()
  @IsString()
  STATIC_TOKENS?: string;

  @ValidateIf(
    (env: Environment) =>
      (env.NODE_ENV === 'production' && env.JWT_ALGORITHM === 'HS256') ||
      env.JWT_SECRET !== undefined,
  )
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  @IsDefined({ message: 'JWT_SECRET is required in production (NODE_ENV unset or production)' })
  JWT_SECRET?: string;

  @IsIn(JWT_ALGORITHMS)
  JWT_ALGORITHM: (typeof JWT_ALGORITHMS)[number] = 'HS256';

  @ValidateIf((env: Environment) => env.JWT_ALGORITHM !== 'HS256')
  @IsDefined({ message: 'JWT_PRIVATE_KEY (PEM) is required with RS256 or ES256' })
  JWT_PRIVATE_KEY?: string;

  @ValidateIf((env: Environment) => env.JWT_ALGORITHM !== 'HS256')
  @IsDefined({ message: 'JWT_PUBLIC_KEY (PEM) is required with RS256 or ES256' })
  JWT_PUBLIC_KEY?: string;

  @IsString()
  JWT_ISSUER = 'shop-api';

  @IsString()
  JWT_AUDIENCE = 'shop-api';

  @IsIntegerFrom(60, 30 * 24 * 3600)
  JWT_TTL_SECONDS = 24 * 3600;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(30 * 24 * 3600)
  IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 3600;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @Matches(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, {
    message: 'NATS_URL must be nats:// URLs separated by commas',
  })
  NATS_URL?: string;

  // NATS subject tokens: no spaces, wildcards or empty tokens.
  @Matches(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, {
    message: 'NATS_SUBJECT_PREFIX must be dot-separated tokens of letters, digits, _ and -',
  })
  NATS_SUBJECT_PREFIX = 'shop.events';

  @Matches(/^[A-Za-z0-9_-]{1,64}$/, {
    message: 'NATS_STREAM must be 1 to 64 letters, digits, _ and -',
  })
  NATS_STREAM = 'SHOP_EVENTS';

  // Webhooks (SPEC 1.17): hosts that may be plain http or private addresses (unset: loopback
  // outside production, none in production), the waits between attempts, one attempt's limit.
  @IsOptional()
  @Matches(/^[^\s,]+(,[^\s,]+)*$/, {
    message: 'WEBHOOK_ALLOWED_HOSTS must be host names or addresses separated by commas',
  })
  WEBHOOK_ALLOWED_HOSTS?: string;

  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,19}$/, {
    message: 'WEBHOOK_RETRY_DELAYS_SECONDS must be 1 to 20 numbers of seconds separated by commas',
  })
  WEBHOOK_RETRY_DELAYS_SECONDS = '5,300,1800,7200,18000,36000,36000';

  @IsIntegerFrom(100, 60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  @IsIntegerFrom(1, 30 * 24)
  WEBHOOK_DISABLE_AFTER_HOURS = 5 * 24;

  @IsIntegerFrom(1, 1_000)
  WEBHOOK_CONCURRENCY = 16;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsOptional()
  @Validate(IsTrustProxy)
  TRUST_PROXY?: string;

  @IsOptional()
  @Validate(IsOriginList)
  CORS_ORIGINS?: string;

  @IsIntegerFrom(0, 2 * 365 * 24 * 3600)
  HSTS_MAX_AGE = 0;

  @IsOptional()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  @Matches(/^[\x21-\x7e]+$/, { message: 'METRICS_TOKEN must be printable ASCII without spaces' })
  METRICS_TOKEN?: string;

  @IsIntegerFrom(1, 1_000_000)
  LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS = 5;

  @IsIntegerFrom(1, 1_000_000)
  LOGIN_MAX_FAILURES_PER_ADDRESS = 20;

  @IsIntegerFrom(1, 24 * 3600)
  LOGIN_THROTTLE_WINDOW_SECONDS = 15 * 60;

  @IsIntegerFrom(1, 1_000_000)
  LOGIN_MAX_FAILURES_PER_EMAIL = 10;

  // The per-email ceiling may slow an account down, never lock it for minutes (SPEC 1.12).
  @IsIntegerFrom(1, 60)
  LOGIN_EMAIL_WINDOW_SECONDS = 30;

  @IsIntegerFrom(1, 1_000_000)
  SIGNUP_MAX_PER_ADDRESS = 10;

  @IsIntegerFrom(1, 24 * 3600)
  SIGNUP_WINDOW_SECONDS = 3600;

  // scrypt's N is 2^PASSWORD_HASH_COST (r=8, p=1): 17 is OWASP's guidance, 128 MiB per hash.
  @IsIntegerFrom(10, 20)
  PASSWORD_HASH_COST = 17;

  @IsIntegerFrom(1, 64)
  PASSWORD_HASH_CONCURRENCY = 2;

  @IsIntegerFrom(1, 100_000)
  PASSWORD_HASH_QUEUE = 100;

  @IsIntegerFrom(100, 10 * 60_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5_000;

  // The longest a migration's statement waits for a lock before it gives up and is retried
  // (SPEC 1.19): live traffic queues behind it no longer than this.
  @IsIntegerFrom(50, 60_000)
  DATABASE_MIGRATION_LOCK_TIMEOUT_MS = 2_000;

  // Queries that no index serves (SPEC 1.6): how many of anonymous and of signed-in callers
  // run at once per instance, the statement timeout of an anonymous caller's, and how long a
  // search by its trigram index may read before it counts as costly.
  @IsIntegerFrom(1, 1_000)
  COSTLY_QUERY_CONCURRENCY = 1;

  @IsIntegerFrom(1, 1_000)
  COSTLY_QUERY_SIGNED_IN_CONCURRENCY = 1;

  @IsIntegerFrom(100, 10 * 60_000)
  COSTLY_QUERY_ANONYMOUS_TIMEOUT_MS = 1_000;

  @IsIntegerFrom(10, 10 * 60_000)
  COSTLY_QUERY_SEARCH_BUDGET_MS = 250;

  @IsIntegerFrom(100, 10 * 60_000)
  REQUEST_TIMEOUT_MS = 10_000;

  @IsIntegerFrom(0, 10 * 60_000)
  SHUTDOWN_GRACE_MS = 10_000;

  @IsIn(SWITCH)
  OUTPUT_VALIDATION: (typeof SWITCH)[number] = 'on';
}

// One message for every way an integer variable can be wrong ("abc" included).
function IsIntegerFrom(min: number, max: number): PropertyDecorator {
  return (target, key) => {
    const message = `${String(key)} must be an integer from ${min} to ${max}`;
    for (const decorate of [
      Type(() => Number),
      Max(max, { message }),
      Min(min, { message }),
      IsInt({ message }),
    ]) {
      decorate(target, key);
    }
  };
}

/** Parses and validates raw environment variables; lists every problem at once. */
export function parseEnvironment(raw: Record<string, string | undefined>): Environment {
  const env = plainToInstance(Environment, withoutBlanks(raw), { exposeDefaultValues: true });
  const problems = validateSync(env, { stopAtFirstError: true }).flatMap(messagesOf);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return env;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigurationError';
  }
}

// An empty variable means "not set", so that `PORT=` falls back to the default.
function withoutBlanks(raw: Record<string, string | undefined>): Record<string, string> {
  const set = Object.entries(raw).filter((entry): entry is [string, string] => !!entry[1]?.trim());
  return Object.fromEntries(set);
}

function messagesOf(error: ValidationError): string[] {
  return Object.values(error.constraints ?? {});
}
