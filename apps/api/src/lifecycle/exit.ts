import { ConfigurationError } from '../config/environment';

/**
 * Ends a command that failed with one line on standard error and exit status 1: the
 * configuration's problems, or the error's message (a stack trace helps no operator here).
 */
export function exitWithOneLine(what: string, error: unknown): never {
  const reason =
    error instanceof ConfigurationError
      ? `invalid configuration: ${error.problems.join('; ')}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`${what}: ${reason}\n`);
  process.exit(1);
}
