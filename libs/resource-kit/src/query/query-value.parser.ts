import type { AttributeDefinition } from '../metadata/definition';
import { INT32, isCalendarDate, isStorableText, isUtcTime } from '../validation/formats';

export type QueryValue = string | number | boolean | Date;

const INTEGER = /^-?\d{1,10}$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * Parses one query-string value by its attribute's type (filters arrive as text).
 * Returns undefined when the text is not a value of that type.
 */
export function parseQueryValue(
  attribute: Pick<AttributeDefinition, 'type' | 'values'>,
  text: string,
): QueryValue | undefined {
  switch (attribute.type) {
    case 'integer':
      // Beyond the column's range a value would fail in SQL rather than match nothing.
      return INTEGER.test(text) && Number(text) >= INT32.min && Number(text) <= INT32.max
        ? Number(text)
        : undefined;
    case 'number':
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'date':
      return isCalendarDate(text) ? text : undefined;
    case 'time':
      return isUtcTime(text) ? new Date(text) : undefined;
    case 'enum':
      return attribute.values!.includes(text) ? text : undefined;
    case 'string':
      return isStorableText(text) ? text : undefined;
    case 'ids':
      return undefined;
  }
}

export function describeType(attribute: Pick<AttributeDefinition, 'type' | 'values'>): string {
  switch (attribute.type) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'a date (YYYY-MM-DD)';
    case 'time':
      return 'a UTC time (YYYY-MM-DDTHH:MM:SSZ)';
    case 'enum':
      return `one of ${attribute.values!.join(', ')}`;
    case 'string':
      return 'a string without U+0000';
    case 'ids':
      return 'a list of ids';
  }
}
