import { plainToInstance } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  validateSync,
} from 'class-validator';

export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A bearer token that configuration grants to a known user (service account, administrator). */
export class StaticToken {
  @IsString()
  @MinLength(16, { message: 'token must be at least 16 characters' })
  @Matches(/^[\x21-\x7e]+$/, { message: 'token must be printable ASCII without spaces' })
  token!: string;

  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsIn(ROLES)
  role!: Role;

  /**
   * The token's tenant (SPEC 1.15), for tenant-scoped resources: a name, or `null` for a
   * cross-tenant operator; absent, the token has no tenant (it reads none of their rows).
   */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'tenant must be a name of 1 to 64 characters, or null' })
  @MaxLength(64, { message: 'tenant must be a name of 1 to 64 characters, or null' })
  tenant?: string | null;
}

/** Parses STATIC_TOKENS (a JSON array of {token, email, name, role, tenant?}); returns problems, not throws. */
export function parseStaticTokens(json: string): { tokens: StaticToken[]; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { tokens: [], problems: ['STATIC_TOKENS must be valid JSON'] };
  }
  if (!Array.isArray(raw) || raw.some((entry) => !isPlainObject(entry))) {
    return { tokens: [], problems: ['STATIC_TOKENS must be a JSON array of objects'] };
  }
  const tokens = raw.map((entry) => plainToInstance(StaticToken, entry));
  const problems = tokens.flatMap((token, index) =>
    validateSync(token, { whitelist: true, forbidNonWhitelisted: true }).flatMap((error) =>
      Object.values(error.constraints ?? {}).map(
        (message) => `STATIC_TOKENS[${index}]: ${message}`,
      ),
    ),
  );
  problems.push(
    ...duplicates(tokens.map((t) => t.token)).map(() => 'STATIC_TOKENS: tokens must be unique'),
  );
  problems.push(
    ...duplicates(tokens.map((t) => t.email?.toLowerCase())).map(
      (email) => `STATIC_TOKENS: email ${email} appears more than once`,
    ),
  );
  return { tokens, problems };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}
