import { generateKeyPairSync } from 'node:crypto';
import { loadConfig, loadConfigWithoutSecret } from './app-config';
import { ConfigurationError } from './environment';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
};

// What `openssl rand -base64 32` gives.
const RANDOM = 'q7V0dI3kzWc9mJ2uXhN5bRtE8yLpA4sGfKo1Hv6TjUw=';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config).toMatchObject({
      nodeEnv: 'test',
      port: 3000,
      basePath: '/',
      logLevel: 'info',
      database: { type: 'sqlite', path: './data/api.sqlite' },
      costlyQueries: {
        concurrency: 1,
        signedInConcurrency: 1,
        anonymousStatementTimeoutMs: 1_000,
        searchBudgetMs: 250,
      },
      requestTimeoutMs: 10_000,
      shutdownGraceMs: 10_000,
      staticTokens: [],
      http: { trustProxy: false, corsOrigins: [], hstsMaxAge: 0 },
      accountLimits: {
        maxFailuresPerEmailAndAddress: 5,
        maxFailuresPerAddress: 20,
        loginWindowSeconds: 900,
        maxFailuresPerEmail: 10,
        emailWindowSeconds: 30,
        maxSignUpsPerAddress: 10,
        signUpWindowSeconds: 3600,
      },
      passwordHash: { cost: 17, concurrency: 2, queue: 100 },
    });
    expect(config.generatedAdminToken).toBeUndefined();
    expect(config.metricsToken).toBeUndefined();
  });

  it('checks output by default and turns the check off with OUTPUT_VALIDATION=off', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).outputValidation).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', OUTPUT_VALIDATION: 'off' }).outputValidation).toBe(false);
    expect(problemsOf({ NODE_ENV: 'test', OUTPUT_VALIDATION: 'no' })).toEqual([
      'OUTPUT_VALIDATION must be one of the following values: on, off',
    ]);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ NODE_ENV: 'test', PORT: '', DATABASE_URL: ' ' })).toMatchObject({
      port: 3000,
      database: { type: 'sqlite' },
    });
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://u@db:5432/shop',
      DATABASE_SCHEMA: 'shop',
    });
    expect(config.database).toEqual({
      type: 'postgres',
      url: 'postgres://u@db:5432/shop',
      schema: 'shop',
      statementTimeoutMs: 5_000,
      migrationLockTimeoutMs: 2_000,
      pooler: 'none',
      replicas: { urls: [], maxLagMs: 5_000 },
    });
  });

  it('reads the replicas, and refuses what is not a list of postgres:// URLs', () => {
    const env = { NODE_ENV: 'test', DATABASE_URL: 'postgres://u@db:5432/shop' };
    const config = loadConfig({
      ...env,
      DATABASE_REPLICA_URLS: 'postgres://u@standby1/shop, postgres://u@standby2/shop',
      DATABASE_REPLICA_MAX_LAG_MS: '2000',
    });
    expect(config.database).toMatchObject({
      replicas: {
        urls: ['postgres://u@standby1/shop', 'postgres://u@standby2/shop'],
        maxLagMs: 2_000,
      },
    });
    expect(problemsOf({ ...env, DATABASE_REPLICA_URLS: 'standby1:5432' })).toEqual([
      'DATABASE_REPLICA_URLS must be comma-separated postgres:// URLs',
    ]);
  });

  it('publishes events only with NATS_URL, and refuses subjects and streams NATS would not take', () => {
    const env = { NODE_ENV: 'test' };
    expect(loadConfig(env).eventPublishing).toEqual({
      url: undefined,
      subjectPrefix: 'shop.events',
      stream: 'SHOP_EVENTS',
    });
    const config = loadConfig({
      ...env,
      NATS_URL: 'nats://a:4222,nats://b:4222',
      NATS_SUBJECT_PREFIX: 'acme.shop',
      NATS_STREAM: 'ACME_SHOP',
    });
    expect(config.eventPublishing).toEqual({
      url: 'nats://a:4222,nats://b:4222',
      subjectPrefix: 'acme.shop',
      stream: 'ACME_SHOP',
    });
    expect(
      problemsOf({
        ...env,
        NATS_URL: 'a:4222',
        NATS_SUBJECT_PREFIX: 'shop.>',
        NATS_STREAM: 'shop events',
      }),
    ).toEqual([
      'NATS_URL must be nats:// URLs separated by commas',
      'NATS_SUBJECT_PREFIX must be dot-separated tokens of letters, digits, _ and -',
      'NATS_STREAM must be 1 to 64 letters, digits, _ and -',
    ]);
  });

  it('lets webhooks reach this machine over http outside production only, unless allowed', () => {
    const test = loadConfig({ NODE_ENV: 'test' }).webhooks;
    expect(test).toEqual({
      allowedHosts: ['localhost', '127.0.0.1', '::1'],
      retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      attemptTimeoutMs: 10_000,
      disableAfterMs: 5 * 24 * 3600_000,
      concurrency: 16,
    });
    // The schedule spans more than a day (SPEC 1.17).
    expect(test.retryDelaysMs.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThan(24 * 3600_000);
    const production = { NODE_ENV: 'production', JWT_SECRET: RANDOM };
    expect(loadConfig(production).webhooks.allowedHosts).toEqual([]);
    const allowed = { ...production, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,10.0.0.8' };
    expect(loadConfig(allowed).webhooks.allowedHosts).toEqual(['hooks.internal', '10.0.0.8']);
    expect(problemsOf({ NODE_ENV: 'test', WEBHOOK_RETRY_DELAYS_SECONDS: '5,soon' })).toEqual([
      'WEBHOOK_RETRY_DELAYS_SECONDS must be 1 to 20 numbers of seconds separated by commas',
    ]);
  });

  it('reads DATABASE_POOLER, and refuses a pool mode it does not know', () => {
    const env = { NODE_ENV: 'test', DATABASE_URL: 'postgres://u@pgbouncer:6432/shop' };
    const config = loadConfig({ ...env, DATABASE_POOLER: 'transaction' });
    expect(config.database).toMatchObject({ type: 'postgres', pooler: 'transaction' });
    expect(problemsOf({ ...env, DATABASE_POOLER: 'statement' })).toEqual([
      'DATABASE_POOLER must be one of the following values: none, transaction',
    ]);
  });

  it('reads the time limits', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://u@db:5432/shop',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '3000',
      SHUTDOWN_GRACE_MS: '0',
      COSTLY_QUERY_CONCURRENCY: '4',
      COSTLY_QUERY_ANONYMOUS_TIMEOUT_MS: '500',
      COSTLY_QUERY_SIGNED_IN_CONCURRENCY: '2',
      COSTLY_QUERY_SEARCH_BUDGET_MS: '100',
    });
    expect(config).toMatchObject({
      database: { statementTimeoutMs: 2_000 },
      costlyQueries: {
        concurrency: 4,
        signedInConcurrency: 2,
        anonymousStatementTimeoutMs: 500,
        searchBudgetMs: 100,
      },
      requestTimeoutMs: 3_000,
      shutdownGraceMs: 0,
    });
  });

  it('refuses time limits that are not whole milliseconds in range', () => {
    const problems = problemsOf({
      NODE_ENV: 'test',
      DATABASE_STATEMENT_TIMEOUT_MS: '50',
      REQUEST_TIMEOUT_MS: '1.5',
      SHUTDOWN_GRACE_MS: 'ten',
    });
    expect(problems).toEqual([
      'DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 100 to 600000',
      'REQUEST_TIMEOUT_MS must be an integer from 100 to 600000',
      'SHUTDOWN_GRACE_MS must be an integer from 0 to 600000',
    ]);
  });

  it('is production when NODE_ENV is unset, and refuses it without JWT_SECRET', () => {
    const required = ['JWT_SECRET is required in production (NODE_ENV unset or production)'];
    expect(problemsOf({})).toEqual(required);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(required);
    expect(loadConfig({ JWT_SECRET: RANDOM }).nodeEnv).toBe('production');
  });

  it('accepts production with a random JWT_SECRET and generates no admin token', () => {
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: RANDOM });
    expect(config.jwtSecret).toBe(RANDOM);
    expect(config.staticTokens).toEqual([]);
    expect(config.generatedAdminToken).toBeUndefined();
  });

  it('refuses weak secrets and a weak password hash in production only', () => {
    const weak = {
      JWT_SECRET: 'x'.repeat(40),
      METRICS_TOKEN: 'change-me-change-me',
      STATIC_TOKENS: JSON.stringify([
        { token: 'abababababababab', email: 'a@example.com', name: 'A', role: 'admin' },
      ]),
      PASSWORD_HASH_COST: '15',
    };
    expect(problemsOf({ NODE_ENV: 'production', ...weak })).toEqual([
      'JWT_SECRET is too uniform to be random: use, for example, openssl rand -base64 32',
      'METRICS_TOKEN looks like a placeholder: use a random value',
      'STATIC_TOKENS[0].token is too uniform to be random: use, for example, openssl rand -base64 32',
      'PASSWORD_HASH_COST must be at least 17 in production (OWASP: scrypt N=2^17)',
    ]);
    expect(problemsOf({ NODE_ENV: 'test', ...weak })).toEqual([]);
  });

  it('derives the same kit secret on every instance from the JWT private key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const env = {
      NODE_ENV: 'production',
      JWT_ALGORITHM: 'ES256',
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    const secret = loadConfig(env).jwtSecret;
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(loadConfig(env).jwtSecret).toBe(secret);
    expect(loadConfig({ ...env, JWT_SECRET: RANDOM }).jwtSecret).toBe(RANDOM);
  });

  it('lets commands that sign no tokens run in production without JWT_SECRET', () => {
    const config = loadConfigWithoutSecret({ NODE_ENV: 'production', JWT_SECRET: ' ' });
    expect(config.jwtSecret).toMatch(/^[\w-]{43}$/);
    expect(loadConfigWithoutSecret({ NODE_ENV: 'production', JWT_SECRET: RANDOM }).jwtSecret).toBe(
      RANDOM,
    );
  });

  it('reports every bad value at once', () => {
    const problems = problemsOf({
      NODE_ENV: 'staging',
      PORT: 'eighty',
      API_BASE_PATH: 'api',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://x',
      JWT_SECRET: 'short',
    });
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(
      /NODE_ENV[\s\S]*PORT[\s\S]*DATABASE_URL[\s\S]*API_BASE_PATH/,
    );
  });

  it('generates an admin token in development when STATIC_TOKENS is unset', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.generatedAdminToken).toMatch(/^[\w-]{43}$/);
    expect(config.staticTokens).toEqual([
      expect.objectContaining({ token: config.generatedAdminToken, role: 'admin' }),
    ]);
    expect(config.jwtSecret).not.toBe(loadConfig({ NODE_ENV: 'development' }).jwtSecret);
  });

  it('takes the secrets development keeps across restarts, and only in development', () => {
    const kept = { jwtSecret: 'k'.repeat(43), adminToken: 't'.repeat(43) };
    const config = loadConfig({ NODE_ENV: 'development' }, kept);
    expect(config.jwtSecret).toBe(kept.jwtSecret);
    expect(config.generatedAdminToken).toBe(kept.adminToken);
    const set = loadConfig({ NODE_ENV: 'development', JWT_SECRET: 's'.repeat(43) }, kept);
    expect(set.jwtSecret).toBe('s'.repeat(43));
    expect(loadConfig({ NODE_ENV: 'test' }, kept).jwtSecret).not.toBe(kept.jwtSecret);
  });

  it('parses STATIC_TOKENS', () => {
    const tokens = [
      { token: 'a'.repeat(20), email: 'ops@example.com', name: 'Ops', role: 'admin' },
      { token: 'b'.repeat(20), email: 'bot@example.com', name: 'Bot', role: 'customer' },
      {
        token: 'c'.repeat(20),
        email: 'acme@example.com',
        name: 'Acme',
        role: 'admin',
        tenant: 'acme',
      },
      { token: 'd'.repeat(20), email: 'all@example.com', name: 'All', role: 'admin', tenant: null },
    ];
    const config = loadConfig({ NODE_ENV: 'development', STATIC_TOKENS: JSON.stringify(tokens) });
    expect(config.staticTokens).toEqual(tokens);
    expect(config.generatedAdminToken).toBeUndefined();
  });

  it.each([
    ['not json', 'STATIC_TOKENS must be valid JSON'],
    ['{"token":"x"}', 'STATIC_TOKENS must be a JSON array of objects'],
    [
      '[{"token":"short","email":"x@example.com","name":"X","role":"admin"}]',
      'STATIC_TOKENS[0]: token must be at least 16 characters',
    ],
    [
      '[{"token":"aaaaaaaaaaaaaaaaaaaa","email":"x@example.com","name":"X","role":"root"}]',
      'STATIC_TOKENS[0]: role must be one of the following values: customer, admin',
    ],
    [
      `[{"token":"aaaaaaaaaaaaaaaaaaaa","email":"x@example.com","name":"X","role":"admin","tenant":"${'t'.repeat(65)}"}]`,
      'STATIC_TOKENS[0]: tenant must be a name of 1 to 64 characters, or null',
    ],
    [
      '[{"token":"aaaaaaaaaaaaaaaaaaaa","email":"x@example.com","name":"X","role":"admin","tenant":7}]',
      'STATIC_TOKENS[0]: tenant must be a string',
    ],
  ])('rejects STATIC_TOKENS=%s', (value, message) => {
    expect(problemsOf({ NODE_ENV: 'test', STATIC_TOKENS: value })).toContain(message);
  });

  it('rejects two static tokens for one email', () => {
    const entry = (token: string) => ({ token, email: 'A@example.com', name: 'A', role: 'admin' });
    const json = JSON.stringify([
      entry('a'.repeat(16)),
      { ...entry('b'.repeat(16)), email: 'a@example.com' },
    ]);
    expect(problemsOf({ NODE_ENV: 'test', STATIC_TOKENS: json })).toEqual([
      'STATIC_TOKENS: email a@example.com appears more than once',
    ]);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '65536', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '80.5', 'PORT must be an integer from 0 to 65535'],
    ['HSTS_MAX_AGE', '-1', 'HSTS_MAX_AGE must be an integer from 0 to 63072000'],
    [
      'LOGIN_MAX_FAILURES_PER_EMAIL',
      '0',
      'LOGIN_MAX_FAILURES_PER_EMAIL must be an integer from 1 to 1000000',
    ],
    [
      'LOGIN_THROTTLE_WINDOW_SECONDS',
      'soon',
      'LOGIN_THROTTLE_WINDOW_SECONDS must be an integer from 1 to 86400',
    ],
    ['METRICS_TOKEN', 'short', 'METRICS_TOKEN must be at least 16 characters'],
  ])('rejects %s=%s', (name, value, message) => {
    expect(problemsOf({ NODE_ENV: 'test', [name]: value })).toEqual([message]);
  });

  it('reads the HTTP edge, metrics and login throttle settings', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      TRUST_PROXY: '10.0.0.0/8, loopback, 2001:db8::1',
      CORS_ORIGINS: 'https://shop.example.com,http://localhost:8080',
      HSTS_MAX_AGE: '31536000',
      METRICS_TOKEN: 'm'.repeat(16),
      LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '4',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '50',
      LOGIN_THROTTLE_WINDOW_SECONDS: '60',
      LOGIN_MAX_FAILURES_PER_EMAIL: '3',
      LOGIN_EMAIL_WINDOW_SECONDS: '20',
      SIGNUP_MAX_PER_ADDRESS: '7',
      SIGNUP_WINDOW_SECONDS: '600',
    });
    expect(config.http).toEqual({
      trustProxy: ['10.0.0.0/8', 'loopback', '2001:db8::1'],
      corsOrigins: ['https://shop.example.com', 'http://localhost:8080'],
      hstsMaxAge: 31536000,
    });
    expect(config.metricsToken).toBe('m'.repeat(16));
    expect(config.accountLimits).toEqual({
      maxFailuresPerEmailAndAddress: 4,
      maxFailuresPerAddress: 50,
      loginWindowSeconds: 60,
      maxFailuresPerEmail: 3,
      emailWindowSeconds: 20,
      maxSignUpsPerAddress: 7,
      signUpWindowSeconds: 600,
    });
    expect(problemsOf({ NODE_ENV: 'test', LOGIN_EMAIL_WINDOW_SECONDS: '900' })).toEqual([
      'LOGIN_EMAIL_WINDOW_SECONDS must be an integer from 1 to 60',
    ]);
    expect(loadConfig({ NODE_ENV: 'test', TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
  });

  it.each(['true', '10.0.0.0/33', 'gateway.local', '1.2.3.4,,5.6.7.8', '-1'])(
    'rejects TRUST_PROXY=%s',
    (value) => {
      expect(problemsOf({ NODE_ENV: 'test', TRUST_PROXY: value })).toEqual([
        expect.stringMatching(/^TRUST_PROXY must be a hop count/),
      ]);
    },
  );

  it.each(['*', 'shop.example.com', 'https://shop.example.com/', 'ftp://x.example.com'])(
    'rejects CORS_ORIGINS=%s',
    (value) => {
      expect(problemsOf({ NODE_ENV: 'test', CORS_ORIGINS: value })).toEqual([
        expect.stringMatching(/^CORS_ORIGINS must be a comma-separated list of origins/),
      ]);
    },
  );
});
