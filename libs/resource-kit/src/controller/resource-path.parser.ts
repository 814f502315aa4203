import { KitError } from '../errors/kit.error';

/** The query string of a request URL, undecoded (the kit's parsers read it). */
export function queryStringOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? '' : url.slice(queryAt + 1);
}

/** A path segment percent-decoded; 400 for one that is not UTF-8. */
export function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new KitError('invalid_input', [`Failed to decode param '${segment}'`]);
  }
}
