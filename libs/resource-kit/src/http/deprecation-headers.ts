import type { ResourceDefinition } from '../metadata/definition';

// Computed once per definition: a create answers with the same strings every time.
const computed = new WeakMap<ResourceDefinition, Readonly<Record<string, string>>>();

/**
 * The headers a deprecated creation answers with: `Deprecation` (RFC 9745, a structured-field
 * date: `@` and the Unix time of the day it was deprecated) and, when a sunset is declared,
 * `Sunset` (RFC 8594, an HTTP-date). None for a creation that is not deprecated.
 * @example deprecationHeadersOf(definition) // { Deprecation: '@1793491200', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' }
 */
export function deprecationHeadersOf(
  definition: ResourceDefinition,
): Readonly<Record<string, string>> {
  let headers = computed.get(definition);
  if (!headers) {
    headers = headersOf(definition.deprecation);
    computed.set(definition, headers);
  }
  return headers;
}

function headersOf(
  deprecation: ResourceDefinition['deprecation'],
): Readonly<Record<string, string>> {
  if (!deprecation) return {};
  const since = Date.parse(`${deprecation.since}T00:00:00Z`) / 1000;
  return Object.freeze({
    Deprecation: `@${since}`,
    ...(deprecation.sunset && {
      Sunset: new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString(),
    }),
  });
}
