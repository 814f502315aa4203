import fc from 'fast-check';
import { types } from 'pg';
import { parseUtcTimestamp } from './utc-timestamps';

// The driver's own parser, as the service used it before (the process runs in UTC).
const driver = types.getTypeParser(types.builtins.TIMESTAMP, 'text') as (text: string) => unknown;

const pad = (value: number, width: number) => String(value).padStart(width, '0');
// A timestamp as PostgreSQL writes it: fraction digits only when not zero, without trailing zeros.
const written = (date: Date, micros: number) => {
  const base = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)} ${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  const fraction = pad(micros, 6).replace(/0+$/, '');
  return fraction ? `${base}.${fraction}` : base;
};

describe('parseUtcTimestamp', () => {
  it('reads every timestamp of years 1000 to 9999 as the driver does', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 999_999 }),
        (date, micros) => {
          const text = written(date, micros);
          expect(parseUtcTimestamp(text)).toEqual(driver(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it.each(['2026-11-25 16:00:00', '2026-11-25 16:00:00.5', '2026-11-25 16:00:00.123456'])(
    'reads %s as UTC',
    (text) => {
      expect(parseUtcTimestamp(text)).toEqual(driver(text));
      expect((parseUtcTimestamp(text) as Date).toISOString().slice(0, 19)).toBe(
        text.slice(0, 19).replace(' ', 'T'),
      );
    },
  );

  it.each([
    '0050-03-01 12:00:00',
    '2020-01-01 00:00:00 BC',
    '2020-01-01 00:00:00.5 BC',
    'infinity',
    '-infinity',
  ])('leaves %s to the driver', (text) => {
    expect(parseUtcTimestamp(text)).toEqual(driver(text));
  });
});
