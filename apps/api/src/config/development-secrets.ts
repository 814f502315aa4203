import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigurationError } from './environment';

/** Where development keeps the secrets it generates: beside the default SQLite file (ignored). */
export const DEVELOPMENT_SECRETS_FILE = './data/development-secrets.json';

/**
 * The JWT secret and admin token that development generates when none is set, kept across
 * restarts of one checkout: the token a developer copied, and the customers' sessions, outlive
 * every save in `npm run dev`. `created` is true on the start that made them.
 */
export interface DevelopmentSecrets {
  jwtSecret: string;
  adminToken: string;
  created: boolean;
}

/** Reads the file, or makes it on the first start (two starts at once agree on one). */
export function developmentSecrets(path = DEVELOPMENT_SECRETS_FILE): DevelopmentSecrets {
  const fresh = { jwtSecret: randomSecret(), adminToken: randomSecret() };
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${JSON.stringify(fresh, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    return { ...fresh, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const kept = parsed(readFileSync(path, 'utf8'));
  if (!kept) {
    throw new ConfigurationError([
      `${path} is not as development wrote it: delete it to start afresh`,
    ]);
  }
  return { ...kept, created: false };
}

function parsed(text: string): Omit<DevelopmentSecrets, 'created'> | undefined {
  try {
    const { jwtSecret, adminToken } = JSON.parse(text) as Record<string, unknown>;
    if (typeof jwtSecret === 'string' && typeof adminToken === 'string') {
      return { jwtSecret, adminToken };
    }
  } catch {
    // Not JSON: as a file without the members.
  }
  return undefined;
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
