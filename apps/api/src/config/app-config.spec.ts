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

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config).toMatchObject({
      nodeEnv: 'test',
      port: 3000,
      basePath: '/',
      logLevel: 'info',
      database: { type: 'sqlite', path: './data/api.sqlite' },
      requestTimeoutMs: 10_000,
      shutdownGraceMs: 10_000,
      staticTokens: [],
      http: { trustProxy: false, corsOrigins: [], hstsMaxAge: 0 },
      loginThrottle: { maxFailuresPerEmail: 5, maxFailuresPerAddress: 20, windowSeconds: 900 },
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
    });
  });

  it('reads the time limits', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://u@db:5432/shop',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '3000',
      SHUTDOWN_GRACE_MS: '0',
    });
    expect(config).toMatchObject({
      database: { statementTimeoutMs: 2_000 },
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

  it('refuses production without JWT_SECRET, with a clear message', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'JWT_SECRET is required when NODE_ENV=production',
    ]);
  });

  it('accepts production with a long JWT_SECRET and generates no admin token', () => {
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(config.jwtSecret).toBe('x'.repeat(32));
    expect(config.staticTokens).toEqual([]);
    expect(config.generatedAdminToken).toBeUndefined();
  });

  it('lets commands that sign no tokens run in production without JWT_SECRET', () => {
    const config = loadConfigWithoutSecret({ NODE_ENV: 'production', JWT_SECRET: ' ' });
    expect(config.jwtSecret).toMatch(/^[\w-]{43}$/);
    expect(
      loadConfigWithoutSecret({ NODE_ENV: 'production', JWT_SECRET: 'y'.repeat(32) }).jwtSecret,
    ).toBe('y'.repeat(32));
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

  it('parses STATIC_TOKENS', () => {
    const tokens = [
      { token: 'a'.repeat(20), email: 'ops@example.com', name: 'Ops', role: 'admin' },
      { token: 'b'.repeat(20), email: 'bot@example.com', name: 'Bot', role: 'customer' },
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
      LOGIN_MAX_FAILURES_PER_EMAIL: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '50',
      LOGIN_THROTTLE_WINDOW_SECONDS: '60',
    });
    expect(config.http).toEqual({
      trustProxy: ['10.0.0.0/8', 'loopback', '2001:db8::1'],
      corsOrigins: ['https://shop.example.com', 'http://localhost:8080'],
      hstsMaxAge: 31536000,
    });
    expect(config.metricsToken).toBe('m'.repeat(16));
    expect(config.loginThrottle).toEqual({
      maxFailuresPerEmail: 3,
      maxFailuresPerAddress: 50,
      windowSeconds: 60,
    });
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
