import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import type { JwtOptions } from '@app/resource-kit';
import { ConfigurationError, Environment, parseEnvironment } from './environment';
import { parseOrigins, parseTrustProxy } from './http-edges.validators';
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

export interface LoginThrottleConfig {
  maxFailuresPerEmail: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

export type DatabaseConfig =
  | { type: 'postgres'; url: string; schema?: string; statementTimeoutMs: number }
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
  /** Longest a request may run before it is answered 503. */
  requestTimeoutMs: number;
  /** After SIGTERM or SIGINT, how long requests in flight may take before they are cut. */
  shutdownGraceMs: number;
  /** Secret the kit derives its own keys from (cursors): JWT_SECRET, or generated. */
  jwtSecret: string;
  jwt: JwtOptions;
  redisUrl?: string;
  http: HttpEdgeConfig;
  /** Bearer token GET /metrics requires; unset: open (protect it at the network). */
  metricsToken?: string;
  loginThrottle: LoginThrottleConfig;
  /** How long an Idempotency-Key and the answer stored under it are kept. */
  idempotencyKeyTtlSeconds: number;
  staticTokens: StaticToken[];
  /** Set when development start-up generated an admin token because STATIC_TOKENS was unset. */
  generatedAdminToken?: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Reads the environment; throws ConfigurationError listing every problem. */
export function loadConfig(raw: Record<string, string | undefined> = process.env): AppConfig {
  const env = parseEnvironment(raw);
  const { tokens, problems } = env.STATIC_TOKENS
    ? parseStaticTokens(env.STATIC_TOKENS)
    : { tokens: [], problems: [] };
  if (problems.length > 0) throw new ConfigurationError(problems);

  const jwtSecret = env.JWT_SECRET ?? randomSecret();
  const jwt = jwtOptions(env, jwtSecret);
  const generatedAdminToken =
    env.NODE_ENV === 'development' && !env.STATIC_TOKENS ? randomSecret() : undefined;
  return Object.freeze({
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    basePath: env.API_BASE_PATH,
    logLevel: env.LOG_LEVEL,
    outputValidation: env.OUTPUT_VALIDATION === 'on',
    database: databaseConfig(env),
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    // Outside production a missing secret is generated: tokens then last one process lifetime.
    jwtSecret,
    jwt,
    redisUrl: env.REDIS_URL,
    http: httpEdgeConfig(env),
    metricsToken: env.METRICS_TOKEN,
    loginThrottle: {
      maxFailuresPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      maxFailuresPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: env.LOGIN_THROTTLE_WINDOW_SECONDS,
    },
    idempotencyKeyTtlSeconds: env.IDEMPOTENCY_KEY_TTL_SECONDS,
    staticTokens: generatedAdminToken ? [developmentAdmin(generatedAdminToken)] : tokens,
    generatedAdminToken,
  });
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

function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
