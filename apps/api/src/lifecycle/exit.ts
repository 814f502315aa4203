import { ConfigurationError, DEFAULT_SQLITE_PATH } from '../config/environment';

/**
 * Ends a command that failed with one line on standard error and exit status 1: the
 * configuration's problems, or the error's message (a stack trace helps no operator here).
 */
export function exitWithOneLine(what: string, error: unknown): never {
  process.stderr.write(`${what}: ${reasonOf(error)}\n`);
  process.exit(1);
}

// What the drivers say when the database cannot be reached or refuses the connection:
// sockets, and PostgreSQL's refusals of the role, its password or the database's name.
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);
const REFUSED = new Set(['28000', '28P01', '3D000']);

/**
 * Why a command failed, in one line: the configuration's problems, or the error's message,
 * naming the setting that points at the database when the database is what failed.
 */
export function reasonOf(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  if (error instanceof ConfigurationError) {
    return `invalid configuration: ${error.problems.join('; ')}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return message;
  if (UNREACHABLE.has(code) || REFUSED.has(code)) {
    return `cannot use the database at DATABASE_URL (${whereIs(env.DATABASE_URL)}): ${message}`;
  }
  if (code === 'SQLITE_CANTOPEN') {
    return `cannot open the SQLite file at SQLITE_PATH (${env.SQLITE_PATH ?? DEFAULT_SQLITE_PATH}): ${message}`;
  }
  return message;
}

// The URL without its password, or that it is unset.
function whereIs(url: string | undefined): string {
  if (!url) return 'unset';
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'not a URL';
  }
}
