import { Column, ColumnOptions } from 'typeorm';
import type { AttributeType, EntityClass, MemberLevel, Visibility } from '../metadata/definition';
import { snakeCase } from '../metadata/naming';
import { MemberDeclaration, recordMember } from '../metadata/member-declarations';

export interface AttributeOptions {
  type: AttributeType;
  /** What the attribute means: the OpenAPI document shows it on the property. */
  description?: string;
  /** Allowed values of an `enum` attribute. */
  values?: readonly string[];
  /** The resources an `ids` attribute (`cart_item_ids`, create input only) refers to. */
  target?: () => EntityClass;
  /** A stricter format of a `string` attribute. */
  format?: 'email';
  /** Not required on create. */
  optional?: boolean;
  /** May be null (in input when writable, and in output). */
  nullable?: boolean;
  /** `true` (create and patch, the default), `'create'`, `'patch'` (only one of them) or `false` (read-only). */
  writable?: boolean | 'create' | 'patch';
  /** `'always'` (default), `'never'` (write-only) or `'on-create'` (only in the POST response). */
  output?: Visibility;
  minLength?: number;
  /** Strings default to 255. */
  maxLength?: number;
  min?: number;
  max?: number;
  /**
   * Filters and orders on it are frequent: an index on (its column, id) serves both (and
   * keyset pages in its order). The OpenAPI document marks them index-backed.
   */
  indexed?: boolean;
  /**
   * `contains` on this string is frequent: on PostgreSQL a trigram index (pg_trgm) on the
   * expression the filter compares serves it. SQLite scans (see the kit README).
   */
  searchable?: boolean;
  /**
   * Who reads it (SPEC 1.16), within what the resource's access allows: `'authenticated'`,
   * `'owner'` (the row's owner, and administrators) or `'admin'`. Any other caller's answers
   * leave it out (absent, not null), and filters and orders on it are 400 as for a member that
   * does not exist. `'owner'` needs a resource whose owner is a property of its own and whose
   * reads are the owner's rows only (checked at start).
   */
  readableBy?: MemberLevel;
  /** Who writes it, by the same levels; any other caller's input naming it is 400. */
  writableBy?: MemberLevel;
  /** `false` for an attribute the entity does not store (a password, a token). */
  column?: false | Pick<ColumnOptions, 'default' | 'unique'>;
}

const DEFAULT_MAX_LENGTH = 255;

/**
 * Declares one attribute of a resource and maps it to a column.
 * @example
 *   @Attribute({ type: 'integer', min: 0 }) priceCents!: number;   // "price_cents" on the wire
 */
export function Attribute(options: AttributeOptions): PropertyDecorator {
  return (prototype, property) => {
    if (options.searchable && options.type !== 'string') {
      throw new Error(`${String(property)}: only a string attribute can be searchable`);
    }
    const member = memberOf(String(property), options);
    recordMember(prototype, member);
    if (options.column !== false) {
      Column({ ...columnFor(member), ...options.column })(prototype, property);
    }
  };
}

function memberOf(property: string, options: AttributeOptions): MemberDeclaration {
  const writable = options.writable ?? true;
  return {
    property,
    description: options.description,
    type: options.type,
    values: options.values,
    format: options.format,
    ...(options.target && { reference: { relationship: '', target: options.target } }),
    optional: options.optional ?? (writable === false || writable === 'patch'),
    nullable: options.nullable ?? false,
    writable,
    output: options.output ?? 'always',
    stored: options.column !== false,
    minLength: options.minLength,
    maxLength:
      options.type === 'string' ? (options.maxLength ?? DEFAULT_MAX_LENGTH) : options.maxLength,
    min: options.min,
    max: options.max,
    ...(options.indexed && { indexed: true }),
    ...(options.searchable && { searchable: true }),
    ...(options.readableBy && { readableBy: options.readableBy }),
    ...(options.writableBy && { writableBy: options.writableBy }),
  };
}

/** The portable column (same declaration on PostgreSQL and SQLite) for an attribute. */
function columnFor(member: MemberDeclaration): ColumnOptions {
  const base = { name: snakeCase(member.property), nullable: member.nullable };
  switch (member.type) {
    case 'string':
      return member.maxLength! <= DEFAULT_MAX_LENGTH
        ? { ...base, type: 'varchar', length: member.maxLength }
        : { ...base, type: 'text' };
    case 'enum':
      return { ...base, type: 'varchar', length: Math.max(...member.values!.map((v) => v.length)) };
    case 'integer':
      return { ...base, type: 'integer' };
    case 'number':
      return { ...base, type: 'double precision' };
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'date':
      return { ...base, type: 'date' };
    case 'time':
      // `timestamp` on PostgreSQL, `datetime` on SQLite; the service runs in UTC.
      return { ...base, type: Date };
    case 'ids':
      throw new Error(
        `${member.property}: an ids attribute is input only; declare it with column: false`,
      );
  }
}
