import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { JwtOptions } from '@app/resource-kit';
import { DevelopmentSecrets, randomSecret } from './development-secrets';
import { ConfigurationError, Environment, parseEnvironment } from './environment';
import { parseOrigins, parseTrustProxy } from './http-edges.validators';
import { secretFromPrivateKey, weakSecretProblem } from './secrets';
import { parseStaticTokens, StaticToken } from './static-tokens';

/** How the service meets the network in front of it (see docs/operations.md). */
export interface HttpEdgeConfig {
  /** Express's `trust proxy`: false (the socket's address is the client), hops or addresses. */
  trustProxy: false | number | string[];
  /** Origins allowed by CORS; empty: CORS off. */
  corsOrigins: string[];
  /** Strict-Transport-Security max-age in seconds; 0: no header. */
  hstsMaxAge: number;
}

/** Limits on logging in and signing up (SPEC 1.12; docs/operations.md, "Security"). */
export interface AccountLimitsConfig {
  /** Failed log-ins of one email from one address, per `loginWindowSeconds`. */
  maxFailuresPerEmailAndAddress: number;
  /** Failed log-ins from one address, whatever the email, per `loginWindowSeconds`. */
  maxFailuresPerAddress: number;
  loginWindowSeconds: number;
  /** Failed log-ins of one email from anywhere, per `emailWindowSeconds` (at most a minute). */
  maxFailuresPerEmail: number;
  emailWindowSeconds: number;
  /** Sign-ups from one address per `signUpWindowSeconds`. */
  maxSignUpsPerAddress: number;
  signUpWindowSeconds: number;
}

/** scrypt's cost and how many hashes run at once; more wait in a bounded queue. */
export interface PasswordHashConfig {
  /** log2 of scrypt's N (r=8, p=1). */
  cost: number;
  concurrency: number;
  queue: number;
}

/** Where the events are published (SPEC 1.14; docs/operations.md, "Published events"). */
export interface EventPublishingConfig {
  /** NATS servers, comma-separated `nats://` URLs; unset: events are recorded, not published. */
  url?: string;
  /** Events go to `<prefix>.<type>.<action>`. */
  subjectPrefix: string;
  /** The JetStream stream holding them, created when missing. */
  stream: string;
}

/** How webhooks are delivered (SPEC 1.17; docs/operations.md, "Webhooks"). */
export interface WebhookConfig {
  /** Hosts deliveries may reach over plain http or at loopback, private or link-local addresses. */
  allowedHosts: string[];
  /** The wait after each failed attempt; when they run out, the delivery has failed. */
  retryDelaysMs: number[];
  /** The longest one attempt may take, connection included. */
  attemptTimeoutMs: number;
  /** An endpoint whose deliveries have all failed for this long is disabled. */
  disableAfterMs: number;
  /** Attempts in flight at once per instance, each to another endpoint. */
  concurrency: number;
}

export type DatabaseConfig =
  | {
      type: 'postgres';
      url: string;
      schema?: string;
      statementTimeoutMs: number;
      /** How long a migration's statement waits for a lock before it is retried. */
      migrationLockTimeoutMs: number;
      pooler: Environment['DATABASE_POOLER'];
      /** Hot standbys for anonymous reads, and the replay lag past which one is left out. */
      replicas: { urls: string[]; maxLagMs: number };
    }
  | { type: 'sqlite'; path: string };

/** The service's validated configuration; built once at start from the environment. */
export interface AppConfig {
  nodeEnv: Environment['NODE_ENV'];
  port: number;
  basePath: string;
  logLevel: Environment['LOG_LEVEL'];
  /** Whether every response is checked against its declaration before it is sent. */
  outputValidation: boolean;
  database: DatabaseConfig;
  /** The bound on queries that no index serves (SPEC 1.6; the kit's `costlyQueries`). */
  costlyQueries: {
    concurrency: number;
    signedInConcurrency: number;
    anonymousStatementTimeoutMs: number;
    searchBudgetMs: number;
  };
  /** Longest a request may run before it is answered 503. */
  requestTimeoutMs: number;
  /** After SIGTERM or SIGINT, how long requests in flight may take before they are cut. */
  shutdownGraceMs: number;
  /**
   * Secret the kit derives its own keys from (cursors, idempotency fingerprints): JWT_SECRET,
   * else derived from the JWT private key, else (outside production) generated.
   */
  jwtSecret: string;
  jwt: JwtOptions;
  redisUrl?: string;
  eventPublishing: EventPublishingConfig;
  webhooks: WebhookConfig;
  http: HttpEdgeConfig;
  /** Bearer token GET /metrics requires; unset: open outside production, off in production. */
  metricsToken?: string;
  accountLimits: AccountLimitsConfig;
  passwordHash: PasswordHashConfig;
  /** How long an Idempotency-Key and the answer stored under it are kept. */
  idempotencyKeyTtlSeconds: number;
  staticTokens: StaticToken[];
  /** Set when development start-up generated an admin token because STATIC_TOKENS was unset. */
  generatedAdminToken?: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Reads the environment; throws ConfigurationError listing every problem. In development,
 * `kept` fills a missing JWT_SECRET and the admin token (see development-secrets.ts); without
 * it they are generated for this process alone.
 */
export function loadConfig(
  raw: Record<string, string | undefined> = process.env,
  kept?: Omit<DevelopmentSecrets, 'created'>,
): AppConfig {
  const env = parseEnvironment(raw);
  const { tokens, problems } = env.STATIC_TOKENS
    ? parseStaticTokens(env.STATIC_TOKENS)
    : { tokens: [], problems: [] };
  problems.push(...productionProblems(env, tokens));
  if (problems.length > 0) throw new ConfigurationError(problems);

  const development = env.NODE_ENV === 'development' ? kept : undefined;
  const jwt = jwtOptions(env, env.JWT_SECRET ?? development?.jwtSecret ?? randomSecret());
  const jwtSecret =
    env.JWT_SECRET ?? ('privateKey' in jwt ? secretFromPrivateKey(jwt.privateKey) : jwt.secret);
  const generatedAdminToken =
    env.NODE_ENV === 'development' && !env.STATIC_TOKENS
      ? (development?.adminToken ?? randomSecret())
      : undefined;
  return Object.freeze({
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    basePath: env.API_BASE_PATH,
    logLevel: env.LOG_LEVEL,
    outputValidation: env.OUTPUT_VALIDATION === 'on',
    database: databaseConfig(env),
    costlyQueries: {
      concurrency: env.COSTLY_QUERY_CONCURRENCY,
      signedInConcurrency: env.COSTLY_QUERY_SIGNED_IN_CONCURRENCY,
      anonymousStatementTimeoutMs: env.COSTLY_QUERY_ANONYMOUS_TIMEOUT_MS,
      searchBudgetMs: env.COSTLY_QUERY_SEARCH_BUDGET_MS,
    },
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    // Outside production a missing secret is generated: tokens then last one process lifetime.
    jwtSecret,
    jwt,
    redisUrl: env.REDIS_URL,
    eventPublishing: {
      url: env.NATS_URL,
      subjectPrefix: env.NATS_SUBJECT_PREFIX,
      stream: env.NATS_STREAM,
    },
    webhooks: webhookConfig(env),
    http: httpEdgeConfig(env),
    metricsToken: env.METRICS_TOKEN,
    accountLimits: {
      maxFailuresPerEmailAndAddress: env.LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS,
      maxFailuresPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      loginWindowSeconds: env.LOGIN_THROTTLE_WINDOW_SECONDS,
      maxFailuresPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      emailWindowSeconds: env.LOGIN_EMAIL_WINDOW_SECONDS,
      maxSignUpsPerAddress: env.SIGNUP_MAX_PER_ADDRESS,
      signUpWindowSeconds: env.SIGNUP_WINDOW_SECONDS,
    },
    passwordHash: {
      cost: env.PASSWORD_HASH_COST,
      concurrency: env.PASSWORD_HASH_CONCURRENCY,
      queue: env.PASSWORD_HASH_QUEUE,
    },
    idempotencyKeyTtlSeconds: env.IDEMPOTENCY_KEY_TTL_SECONDS,
    staticTokens: generatedAdminToken ? [developmentAdmin(generatedAdminToken)] : tokens,
    generatedAdminToken,
  });
}

// Production refuses secrets that are guessable and hashing below OWASP's guidance (SPEC 1.12).
function productionProblems(env: Environment, tokens: StaticToken[]): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const secrets: [string, string | undefined][] = [
    ['JWT_SECRET', env.JWT_SECRET],
    ['METRICS_TOKEN', env.METRICS_TOKEN],
    ...tokens.map((granted, index): [string, string] => [
      `STATIC_TOKENS[${index}].token`,
      granted.token,
    ]),
  ];
  const problems = secrets.flatMap(([name, value]) =>
    value === undefined ? [] : (weakSecretProblem(name, value) ?? []),
  );
  if (env.PASSWORD_HASH_COST < 17) {
    problems.push('PASSWORD_HASH_COST must be at least 17 in production (OWASP: scrypt N=2^17)');
  }
  return problems;
}

function webhookConfig(env: Environment): WebhookConfig {
  // Outside production a receiver on this machine is the usual test of an integration.
  const local = env.NODE_ENV === 'production' ? '' : 'localhost,127.0.0.1,::1';
  return {
    allowedHosts: (env.WEBHOOK_ALLOWED_HOSTS ?? local).split(',').filter(Boolean),
    retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_SECONDS.split(',').map((s) => Number(s) * 1000),
    attemptTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER_HOURS * 3600_000,
    concurrency: env.WEBHOOK_CONCURRENCY,
  };
}

/** For commands that sign no tokens (seed, migrations): JWT_SECRET is generated when unset. */
export function loadConfigWithoutSecret(
  raw: Record<string, string | undefined> = process.env,
): AppConfig {
  return loadConfig({ ...raw, JWT_SECRET: raw.JWT_SECRET?.trim() || randomSecret() });
}

function jwtOptions(env: Environment, secret: string): JwtOptions {
  const claims = {
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    lifetimeSeconds: env.JWT_TTL_SECONDS,
  };
  if (env.JWT_ALGORITHM === 'HS256') return { ...claims, algorithm: 'HS256', secret };
  // PEM keys may arrive on one line with literal \n, as many secret stores write them.
  const privateKey = env.JWT_PRIVATE_KEY!.replace(/\\n/g, '\n');
  const publicKey = env.JWT_PUBLIC_KEY!.replace(/\\n/g, '\n');
  const problems = keyProblems(env.JWT_ALGORITHM, {
    JWT_PRIVATE_KEY: privateKey,
    JWT_PUBLIC_KEY: publicKey,
  });
  if (problems.length > 0) throw new ConfigurationError(problems);
  return { ...claims, algorithm: env.JWT_ALGORITHM, privateKey, publicKey };
}

// The key pair must parse and match the algorithm: RSA for RS256, P-256 EC for ES256.
function keyProblems(
  algorithm: 'RS256' | 'ES256',
  keys: Record<'JWT_PRIVATE_KEY' | 'JWT_PUBLIC_KEY', string>,
): string[] {
  const expected = algorithm === 'RS256' ? 'rsa' : 'ec';
  const problems: string[] = [];
  for (const [name, parse] of [
    ['JWT_PRIVATE_KEY', createPrivateKey],
    ['JWT_PUBLIC_KEY', createPublicKey],
  ] as const) {
    try {
      const key = parse(keys[name]);
      if (key.asymmetricKeyType !== expected) {
        problems.push(`${name} must be an ${expected.toUpperCase()} key for ${algorithm}`);
      }
    } catch {
      problems.push(`${name} must be a PEM key`);
    }
  }
  return problems;
}

// The values passed validation in parseEnvironment, so they parse.
function httpEdgeConfig(env: Environment): HttpEdgeConfig {
  return {
    trustProxy: (env.TRUST_PROXY && parseTrustProxy(env.TRUST_PROXY)) || false,
    corsOrigins: (env.CORS_ORIGINS && parseOrigins(env.CORS_ORIGINS)) || [],
    hstsMaxAge: env.HSTS_MAX_AGE,
  };
}

function databaseConfig(env: Environment): DatabaseConfig {
  if (env.DATABASE_URL) {
    return {
      type: 'postgres',
      url: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      migrationLockTimeoutMs: env.DATABASE_MIGRATION_LOCK_TIMEOUT_MS,
      pooler: env.DATABASE_POOLER,
      replicas: {
        urls: env.DATABASE_REPLICA_URLS?.split(',').map((url) => url.trim()) ?? [],
        maxLagMs: env.DATABASE_REPLICA_MAX_LAG_MS,
      },
    };
  }
  return { type: 'sqlite', path: env.SQLITE_PATH };
}

function developmentAdmin(token: string): StaticToken {
  return Object.assign(new StaticToken(), {
    token,
    email: 'admin@example.com',
    name: 'Development administrator',
    role: 'admin' as const,
  });
}
