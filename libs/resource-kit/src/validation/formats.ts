const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

// JSON Schema patterns (ECMA-262, read with the `u` flag as ajv does) of the wire forms the
// store can hold; the input schema publishes them. Plain classes and ranges only, the subset
// JSON Schema recommends for portable patterns.
const YEAR = '(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})';
const DAY = `${YEAR}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])`;
/** `YYYY-MM-DD` from year 0001; the `date` format adds that the day exists. */
export const DATE_PATTERN = `^${DAY}$`;
/** UTC `YYYY-MM-DDTHH:MM:SSZ` (no fraction, no offset, no leap second); `date-time` checks the day. */
export const TIME_PATTERN = `^${DAY}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$`;
// With the `u` flag a surrogate pair is one code point, so the range matches only lone halves.
/** Text without U+0000 or a lone surrogate. */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000\\ud800-\\udfff]*$';
const STORABLE_TEXT = new RegExp(STORABLE_TEXT_PATTERN, 'u');

/** Integer attributes are 32-bit columns, unless a declaration gives other limits. */
export const INT32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;

/**
 * Text both engines store exactly as given: no U+0000 (PostgreSQL refuses it) and no lone
 * surrogate (not Unicode; drivers would store U+FFFD instead).
 */
export function isStorableText(text: string): boolean {
  return STORABLE_TEXT.test(text);
}

/** `YYYY-MM-DD`, and a day that exists (no February 30th). */
export function isCalendarDate(value: unknown): value is string {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  return !!match && isRealDay(+match[1], +match[2], +match[3]);
}

/** UTC `YYYY-MM-DDTHH:MM:SSZ`, no fractional seconds, no offset. */
export function isUtcTime(value: unknown): value is string {
  const match = typeof value === 'string' ? TIME.exec(value) : null;
  return (
    !!match &&
    isRealDay(+match[1], +match[2], +match[3]) &&
    +match[4] < 24 &&
    +match[5] < 60 &&
    +match[6] < 60
  );
}

function isRealDay(year: number, month: number, day: number): boolean {
  // The calendar has no year 0 (PostgreSQL refuses it); years run from 0001.
  if (year < 1) return false;
  // setUTCFullYear, unlike Date.UTC, does not read years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The wire form of a time, whatever the database returned (Date or text, with or without zone). */
export function formatTime(value: Date | string): string {
  const iso = (typeof value === 'string' ? parseStoredTime(value) : value).toISOString();
  // Years 0 to 9999 print as YYYY-MM-DDTHH:MM:SS.sssZ; others carry a sign and six digits.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** The wire form of a date column (text on both engines; a Date if a driver parsed it). */
export function formatDate(value: Date | string): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

// SQLite returns "YYYY-MM-DD HH:MM:SS.SSS" (UTC, no zone), PostgreSQL's text form may end
// in "+00"; zone-less text is UTC.
function parseStoredTime(text: string): Date {
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  const zone = /(Z|[+-]\d{2}(:?\d{2})?)$/i.exec(iso);
  if (!zone) return new Date(`${iso}Z`);
  return new Date(/^[+-]\d{2}$/.test(zone[1]) ? `${iso}:00` : iso);
}
