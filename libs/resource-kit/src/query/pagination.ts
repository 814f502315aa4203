/** The three pagination styles; a service uses one (kit option `pagination`). */
export type PaginationStyle = 'cursor' | 'offset' | 'page';

export interface PageLimits {
  readonly default: number;
  readonly max: number;
}

export type PageRequest =
  | { readonly style: 'cursor'; readonly limit: number; readonly cursor?: string }
  | { readonly style: 'offset'; readonly limit: number; readonly offset: number };

/** The query parameters each style reads. */
export const PAGE_PARAMETERS: Readonly<Record<PaginationStyle, readonly string[]>> = {
  cursor: ['cursor', 'limit'],
  offset: ['offset', 'limit'],
  page: ['page', 'per_page'],
};

const COUNT = /^\d{1,9}$/;

/** Reads a style's parameters; `page`+`per_page` becomes an offset request. */
export function parsePageRequest(
  style: PaginationStyle,
  params: ReadonlyMap<string, string>,
  limits: PageLimits,
): { page: PageRequest; problems: string[] } {
  const problems: string[] = [];
  const count = (name: string, fallback: number, min: number, max: number): number => {
    const text = params.get(name);
    if (text === undefined) return fallback;
    if (!COUNT.test(text) || +text < min || +text > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return +text;
  };
  if (style === 'page') {
    const size = count('per_page', limits.default, 1, limits.max);
    const number = count('page', 1, 1, 1_000_000_000);
    return { page: { style: 'offset', limit: size, offset: (number - 1) * size }, problems };
  }
  const limit = count('limit', limits.default, 1, limits.max);
  if (style === 'offset') {
    return { page: { style, limit, offset: count('offset', 0, 0, 1_000_000_000) }, problems };
  }
  return { page: { style, limit, cursor: params.get('cursor') }, problems };
}
