import { KitError } from '../errors/kit.error';
import type { PathShape } from './operation';

/** A request path in one of the three shapes, its segments as written. */
export interface ResourcePath {
  readonly shape: PathShape;
  readonly type: string;
  readonly id?: string;
  readonly relationship?: string;
}

/**
 * Reads `/type`, `/type/{id}` or `/type/{id}/{relationship}` under the base path; anything
 * else (another prefix, a trailing slash, an empty or extra segment) is no resource path.
 * The type and relationship are compared as written, so `/Products` or `/pro%64ucts` name
 * nothing (SPEC 1.3).
 */
export function parseResourcePath(
  url: string,
  basePath: string,
  isType: (segment: string) => boolean,
): ResourcePath | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const prefix = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  if (!path.startsWith(prefix) || path.charCodeAt(prefix.length) !== SLASH) return undefined;
  const segments = path.slice(prefix.length + 1).split('/');
  if (segments.length > 3 || segments.includes('')) return undefined;
  const [type, id, relationship] = segments;
  if (!isType(type)) return undefined;
  if (id === undefined) return { shape: 'collection', type };
  return relationship === undefined
    ? { shape: 'item', type, id }
    : { shape: 'relationship', type, id, relationship };
}

/** The query string of a request URL, undecoded (the kit's parsers read it). */
export function queryStringOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? '' : url.slice(queryAt + 1);
}

const SLASH = 0x2f;

/** A path segment percent-decoded; 400 for one that is not UTF-8. */
export function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new KitError('invalid_input', [`Failed to decode param '${segment}'`]);
  }
}
