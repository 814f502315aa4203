import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotContains,
  NotEquals,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';
import { INT32, isCalendarDate, isStorableText, isUtcTime } from './formats';

export type InputMode = 'create' | 'patch';
export type InputDto = new () => Record<string, unknown>;

const message = (text: string): ValidationOptions => ({ message: `data.$property ${text}` });

/**
 * Builds the class-validator DTO of one resource and mode, once. Property names are wire
 * names; validators run in the order applied and stop at a property's first failure.
 */
export function buildInputDto(definition: ResourceDefinition, mode: InputMode): InputDto {
  const dto = class {} as InputDto;
  Object.defineProperty(dto, 'name', { value: `${definition.type}:${mode}` });
  for (const attribute of definition.attributes.filter((a) => a.writable[mode])) {
    for (const decorator of presenceRules(attribute, mode).concat(valueRules(attribute))) {
      decorator(dto.prototype as object, attribute.name);
    }
  }
  return dto;
}

function presenceRules(attribute: AttributeDefinition, mode: InputMode): PropertyDecorator[] {
  const key = attribute.name;
  const required = mode === 'create' && attribute.required;
  const present = (o: Record<string, unknown>) => o[key] !== undefined;
  const rules: PropertyDecorator[] = [];
  if (attribute.nullable) {
    // null is a value; validate the rest only for non-null values.
    rules.push(
      ValidateIf((o: Record<string, unknown>) => (required || present(o)) && o[key] !== null),
    );
  } else {
    rules.push(ValidateIf((o: Record<string, unknown>) => required || present(o)));
    rules.push(NotEquals(null, message('must not be null')));
  }
  // Not IsDefined: class-validator runs it before everything else, and it also rejects null.
  if (required) rules.push(check('present', (value) => value !== undefined, 'is required'));
  return rules;
}

function valueRules(attribute: AttributeDefinition): PropertyDecorator[] {
  switch (attribute.type) {
    case 'string':
      return stringRules(attribute);
    case 'enum':
      return [
        IsIn([...attribute.values!], message(`must be one of: ${attribute.values!.join(', ')}`)),
      ];
    case 'integer':
      // Larger values are rejected as input, not failed in SQL.
      return [IsInt(message('must be an integer')), ...rangeRules(attribute, INT32)];
    case 'number':
      return [
        IsNumber({ allowNaN: false, allowInfinity: false }, message('must be a number')),
        ...rangeRules(attribute, {}),
      ];
    case 'boolean':
      return [IsBoolean(message('must be a boolean'))];
    case 'date':
      return [check('date', isCalendarDate, 'must be a date in the form YYYY-MM-DD')];
    case 'time':
      return [check('time', isUtcTime, 'must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ')];
    case 'ids':
      return [
        IsArray(message('must be an array of ids')),
        ArrayMinSize(1, message('must hold at least one id')),
        ArrayMaxSize(100, message('must hold at most 100 ids')),
        IsString({ each: true, ...message('must hold only id strings') }),
        MaxLength(36, { each: true, ...message('must hold only id strings') }),
        ArrayUnique(undefined, message('must not repeat an id')),
      ];
  }
}

function stringRules(attribute: AttributeDefinition): PropertyDecorator[] {
  const rules = [
    IsString(message('must be a string')),
    NotContains('\u0000', message('must not contain U+0000')),
    // Then the rest of what the store cannot hold: lone surrogates.
    check(
      'storable',
      (value) => isStorableText(value as string),
      'must be well-formed Unicode text',
    ),
    MaxLength(attribute.maxLength!, message(`must be at most ${attribute.maxLength} characters`)),
  ];
  if (attribute.format === 'email') rules.push(IsEmail({}, message('must be an email address')));
  if (attribute.minLength) {
    rules.push(
      MinLength(attribute.minLength, message(`must be at least ${attribute.minLength} characters`)),
    );
  }
  return rules;
}

function rangeRules(attribute: AttributeDefinition, limits: { min?: number; max?: number }) {
  const min = attribute.min ?? limits.min;
  const max = attribute.max ?? limits.max;
  const rules: PropertyDecorator[] = [];
  if (min !== undefined) rules.push(Min(min, message(`must be at least ${min}`)));
  if (max !== undefined) rules.push(Max(max, message(`must be at most ${max}`)));
  return rules;
}

function check(name: string, test: (value: unknown) => boolean, text: string): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: test } }, message(text));
}
