import { hkdfSync } from 'node:crypto';

// Placeholders copied from examples; a random secret holds none of them.
const PLACEHOLDERS = /secret|password|change-?me|example|placeholder/i;
const MIN_DISTINCT_CHARACTERS = 8;

/** Why production must not rely on this secret (a placeholder, or too uniform to be random). */
export function weakSecretProblem(name: string, value: string): string | undefined {
  if (PLACEHOLDERS.test(value)) return `${name} looks like a placeholder: use a random value`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) {
    return `${name} is too uniform to be random: use, for example, openssl rand -base64 32`;
  }
  return undefined;
}

/**
 * The secret the kit derives its keys from (cursors, idempotency fingerprints) when tokens are
 * signed with a key pair and JWT_SECRET is unset: every instance holds the same private key,
 * so every instance derives the same secret.
 */
export function secretFromPrivateKey(privateKeyPem: string): string {
  const key = hkdfSync('sha256', privateKeyPem, '', 'shop-api kit keys', 32);
  return Buffer.from(key).toString('base64url');
}
