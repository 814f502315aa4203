import { ConfigurationError } from '../config/environment';

/**
 * Ends a command that failed with one line on standard error and exit status 1: the
 * configuration's problems, or the error's message (a stack trace helps no operator here).
 */
export function exitWithOneLine(what: string, error: unknown): never {
  process.stderr.write(`${what}: ${reasonOf(error)}\n`);
  process.exit(1);
}

/** Why a command failed, in one line: the configuration's problems, or the error's message. */
export function reasonOf(error: unknown): string {
  if (error instanceof ConfigurationError) {
    return `invalid configuration: ${error.problems.join('; ')}`;
  }
  return error instanceof Error ? error.message : String(error);
}
