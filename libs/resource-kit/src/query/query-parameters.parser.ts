import { invalidInput } from '../errors/kit.error';
import type { PathShape } from '../controller/operation';

/** The query of a request, parsed: only the parameters its path shape allows. */
export interface QueryParameters {
  readonly limit: number;
  readonly cursor?: string;
}

export const PAGE_LIMITS = { default: 25, min: 1, max: 100 } as const;

const ALLOWED: Readonly<Record<PathShape | 'to-one', ReadonlySet<string>>> = {
  collection: new Set(['filter', 'order', 'cursor', 'limit']),
  relationship: new Set(['filter', 'order', 'cursor', 'limit']),
  item: new Set(['filter']),
  'to-one': new Set(['filter']),
};

/** Parses a raw query string (`a=1&b=2`); every problem is reported at once. */
export function parseQueryParameters(query: string, shape: PathShape | 'to-one'): QueryParameters {
  const params = new URLSearchParams(query);
  const problems: string[] = [];
  let limit: number = PAGE_LIMITS.default;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (const [key, value] of params) {
    const name = key.replace(/\[.*$/, '');
    if (!ALLOWED[shape].has(name)) {
      problems.push(`query parameter ${key} is not allowed here`);
    } else if (seen.has(key)) {
      problems.push(`query parameter ${key} is given more than once`);
    } else if (name === 'limit') {
      limit = Number(value);
      if (!/^\d+$/.test(value) || limit < PAGE_LIMITS.min || limit > PAGE_LIMITS.max) {
        problems.push(`limit must be an integer from ${PAGE_LIMITS.min} to ${PAGE_LIMITS.max}`);
      }
    } else if (name === 'cursor') {
      cursor = value;
    } else {
      problems.push(`query parameter ${key} is not supported yet`);
    }
    seen.add(key);
  }
  if (problems.length > 0) throw invalidInput(problems);
  return { limit, cursor };
}
