import { types, type CustomTypesConfig } from 'pg';

const TIMESTAMP: number = types.builtins.TIMESTAMP;
const DIGIT_0 = 48;
const SPACE = 32;
const DOT = 46;
const isDigit = (code: number) => code >= DIGIT_0 && code <= DIGIT_0 + 9;

/**
 * The pg driver's type parsers, with one change: a `timestamp` column (zone-less, UTC in this
 * service) is read by `parseUtcTimestamp` instead of postgres-date. Given to the pools in
 * their `types` option, so no other pg user in the process is touched.
 */
type TypeParser = (text: string) => unknown;
const driverParser = types.getTypeParser as (oid: number, format?: string) => TypeParser;

export const utcTimestamps: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string): TypeParser =>
    oid === TIMESTAMP && format !== 'binary'
      ? parseUtcTimestamp
      : driverParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]` read as UTC, to the millisecond, as postgres-date reads it in
 * a process running in UTC. postgres-date matches a regular expression and builds the Date
 * from local-time parts, which took a tenth of the CPU of a page of 25 products; this reads
 * the digits where they stand. Years before 100, BC and infinity go to the driver's parser.
 */
export function parseUtcTimestamp(text: string): Date | number | null {
  const { length } = text;
  const plain =
    length >= 19 &&
    length <= 26 &&
    text.charCodeAt(10) === SPACE &&
    text.charCodeAt(0) !== DIGIT_0 &&
    (length === 19 || text.charCodeAt(19) === DOT) &&
    isDigit(text.charCodeAt(length - 1));
  if (!plain) return fallback(text);
  // The first three digits of the fraction, as many as there are, are the milliseconds.
  const fraction = Math.min(length, 23);
  const millis = fraction > 20 ? digits(text, 20, fraction) * 10 ** (23 - fraction) : 0;
  return new Date(
    Date.UTC(
      digits(text, 0, 4),
      digits(text, 5, 7) - 1,
      digits(text, 8, 10),
      digits(text, 11, 13),
      digits(text, 14, 16),
      digits(text, 17, 19),
      millis,
    ),
  );
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let index = from; index < to; index++) value = value * 10 + text.charCodeAt(index) - DIGIT_0;
  return value;
}

const fallback = driverParser(TIMESTAMP, 'text') as (text: string) => Date | number | null;
