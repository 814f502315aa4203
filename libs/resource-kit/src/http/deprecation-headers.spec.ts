import type { ResourceDefinition } from '../metadata/definition';
import { deprecationHeadersOf } from './deprecation-headers';

const declared = (deprecation?: ResourceDefinition['deprecation']) =>
  ({ type: 'widgets', deprecation }) as ResourceDefinition;

describe('deprecationHeadersOf', () => {
  it('is empty for a creation that is not deprecated', () => {
    expect(deprecationHeadersOf(declared())).toEqual({});
  });

  it('dates Deprecation as an RFC 9745 structured-field date, midnight UTC of the day', () => {
    const headers = deprecationHeadersOf(declared({ since: '2026-11-01', successor: 'gadgets' }));
    expect(headers).toEqual({ Deprecation: '@1793491200' });
    expect(new Date(1793491200 * 1000).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('adds Sunset as an RFC 8594 HTTP-date when one is declared', () => {
    const headers = deprecationHeadersOf(
      declared({ since: '2026-11-01', successor: 'gadgets', sunset: '2027-06-30' }),
    );
    expect(headers).toEqual({
      Deprecation: '@1793491200',
      Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
    });
  });
});
