import { hash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/**
 * The strong entity tag of one resource: a hash of its wire form (keys sorted), so it changes
 * whenever any output member does, calculated attributes included, and never otherwise.
 * Node's one-shot hash makes no Hash object per answer.
 */
export function entityTag(resource: object): string {
  return `"${hash('sha256', stringify(resource), 'base64url')}"`;
}

/** If-Match (strong comparison): `*`, or a list naming the current tag. */
export function ifMatchAllows(header: string, current: string): boolean {
  return header.trim() === '*' || tagsIn(header).includes(current);
}

/** If-None-Match (weak comparison): `*`, or a list naming the current tag, `W/` or not. */
export function ifNoneMatchHits(header: string, current: string): boolean {
  return header.trim() === '*' || tagsIn(header).some((tag) => tag.replace(/^W\//, '') === current);
}

// RFC 9110 entity-tags: an optional W/ and a quoted opaque string; anything else matches nothing.
function tagsIn(header: string): string[] {
  return header.match(/(W\/)?"[\x21\x23-\x7e]*"/g) ?? [];
}
