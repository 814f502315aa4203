import { loadConfig } from './app-config';
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
      staticTokens: [],
    });
    expect(config.generatedAdminToken).toBeUndefined();
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
    });
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
});
