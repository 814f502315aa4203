import { randomBytes } from 'node:crypto';
import { ConfigurationError, Environment, parseEnvironment } from './environment';
import { parseStaticTokens, StaticToken } from './static-tokens';

export type DatabaseConfig =
  { type: 'postgres'; url: string; schema?: string } | { type: 'sqlite'; path: string };

/** The service's validated configuration; built once at start from the environment. */
export interface AppConfig {
  nodeEnv: Environment['NODE_ENV'];
  port: number;
  basePath: string;
  logLevel: Environment['LOG_LEVEL'];
  database: DatabaseConfig;
  jwtSecret: string;
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

  const generatedAdminToken =
    env.NODE_ENV === 'development' && !env.STATIC_TOKENS ? randomSecret() : undefined;
  return Object.freeze({
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    basePath: env.API_BASE_PATH,
    logLevel: env.LOG_LEVEL,
    database: databaseConfig(env),
    // Outside production a missing secret is generated: tokens then last one process lifetime.
    jwtSecret: env.JWT_SECRET ?? randomSecret(),
    staticTokens: generatedAdminToken ? [developmentAdmin(generatedAdminToken)] : tokens,
    generatedAdminToken,
  });
}

function databaseConfig(env: Environment): DatabaseConfig {
  if (env.DATABASE_URL) {
    return { type: 'postgres', url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA };
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
