import { isIP } from 'node:net';
import {
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

// The names Express's `trust proxy` knows besides addresses and subnets.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as Express takes it: a hop count, or a list of addresses, subnets and names. */
export function parseTrustProxy(value: string): number | string[] | undefined {
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = listOf(value);
  return entries.length > 0 && entries.every(isProxyEntry) ? entries : undefined;
}

/** CORS_ORIGINS: exact origins such as `https://shop.example.com`. */
export function parseOrigins(value: string): string[] | undefined {
  const origins = listOf(value);
  return origins.length > 0 && origins.every(isOrigin) ? origins : undefined;
}

@ValidatorConstraint({ name: 'trustProxy' })
export class IsTrustProxy implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTrustProxy(value) !== undefined;
  }

  defaultMessage({ property }: ValidationArguments): string {
    return `${property} must be a hop count (0 to 99) or a comma-separated list of IP addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal`;
  }
}

@ValidatorConstraint({ name: 'originList' })
export class IsOriginList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseOrigins(value) !== undefined;
  }

  defaultMessage({ property }: ValidationArguments): string {
    return `${property} must be a comma-separated list of origins such as https://shop.example.com`;
  }
}

function listOf(value: string): string[] {
  return value.split(',').map((entry) => entry.trim());
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function isOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === entry;
  } catch {
    return false;
  }
}
