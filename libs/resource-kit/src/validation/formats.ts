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

// The wire forms are read and written digit by digit where they stand: on a page of 25 products
// a regular expression, a Date per day check and toISOString took half of the kit's own CPU.
const DIGIT_0 = 48;
const HYPHEN = 45;
const COLON = 58;
const LETTER_T = 84;
const LETTER_Z = 90;

/** `YYYY-MM-DD`, and a day that exists (no February 30th). */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && value.length === 10 && isDayAt(value);
}

/** UTC `YYYY-MM-DDTHH:MM:SSZ`, no fractional seconds, no offset. */
export function isUtcTime(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length === 20 &&
    isDayAt(value) &&
    value.charCodeAt(10) === LETTER_T &&
    numberAt(value, 11) < 24 &&
    value.charCodeAt(13) === COLON &&
    numberAt(value, 14) < 60 &&
    value.charCodeAt(16) === COLON &&
    numberAt(value, 17) < 60 &&
    value.charCodeAt(19) === LETTER_Z
  );
}

// `YYYY-MM-DD` at the start of the text, a day that exists from year 0001 (the calendar, and
// PostgreSQL, have no year 0).
function isDayAt(text: string): boolean {
  const year = numberAt(text, 0) * 100 + numberAt(text, 2);
  const month = numberAt(text, 5);
  const day = numberAt(text, 8);
  return (
    year >= 1 &&
    text.charCodeAt(4) === HYPHEN &&
    text.charCodeAt(7) === HYPHEN &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

// The two decimal digits at `index`, or NaN (which fails every comparison) if either is not one.
function numberAt(text: string, index: number): number {
  const tens = text.charCodeAt(index) - DIGIT_0;
  const units = text.charCodeAt(index + 1) - DIGIT_0;
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : NaN;
}

// The proleptic Gregorian calendar, as Date and PostgreSQL count.
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

const PAIRS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

/** The wire form of a time, whatever the database returned (Date or text, with or without zone). */
export function formatTime(value: Date | string): string {
  const date = typeof value === 'string' ? parseStoredTime(value) : value;
  const year = date.getUTCFullYear();
  // Years outside 0001 to 9999 carry a sign and six digits; an invalid Date (a NaN year)
  // throws a RangeError in toISOString.
  if (!(year >= 1 && year <= 9999)) return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  // Date's UTC getters and a table of two-digit strings: a third of toISOString's time.
  return (
    PAIRS[Math.floor(year / 100)] +
    PAIRS[year % 100] +
    '-' +
    PAIRS[date.getUTCMonth() + 1] +
    '-' +
    PAIRS[date.getUTCDate()] +
    'T' +
    PAIRS[date.getUTCHours()] +
    ':' +
    PAIRS[date.getUTCMinutes()] +
    ':' +
    PAIRS[date.getUTCSeconds()] +
    'Z'
  );
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
