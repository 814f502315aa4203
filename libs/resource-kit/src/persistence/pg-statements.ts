import { dirname, join } from 'node:path';
import { Query, type FieldDef, type QueryResult } from 'pg';
import { assertLibraryFunctions, assertLibraryMajor } from './library-internals';

/**
 * The kit's statements for pg, and the one place it reaches below pg's public API: pg asks
 * PostgreSQL to describe every execution of a prepared statement, and on each description
 * builds the result's row template and looks up every column's type parser again
 * (`Result.addFields`: 6 % of the CPU of a read by id). A named statement's columns do not
 * change while its connection keeps it (PostgreSQL refuses to run a prepared plan whose result
 * type changed), so the kit remembers them per connection and statement name, and a result
 * takes the remembered template and parsers when the description is the same. And pg builds
 * each row as an object keyed by column name (`rowMode: 'array'` is the public way out, but
 * only for a query config, which pg copies): the kit's rows are arrays, which the row mapper
 * turns into entities with no object in between.
 * Checked when the kit loads: against the pg major it was written for, and for each of pg's
 * result functions it calls.
 */
assertLibraryMajor(
  'pg',
  join(dirname(require.resolve('pg')), '..'),
  8,
  'persistence/pg-statements.ts',
);
assertLibraryFunctions(
  'pg',
  (new Query('') as unknown as { _result?: object })._result,
  'Result',
  ['_parseRowAsArray', 'addFields'],
  'persistence/pg-statements.ts',
);

/** What pg's `Result` builds from a row description, and how it reads a row (pg 8). */
interface ResultColumns {
  fields: FieldDef[];
  _parsers?: unknown[];
  _prebuiltEmptyResultObject: object | null;
  /** The connection's type parsers (pg sets them on the result when the query is sent). */
  _types?: object;
  addFields(fields: FieldDef[]): void;
  parseRow: (values: unknown[]) => unknown;
  _parseRowAsArray: (values: unknown[]) => unknown[];
}

type Described = Pick<ResultColumns, 'fields' | '_parsers' | '_prebuiltEmptyResultObject'>;

// Per connection (its type parsers object, one per pg client), per statement name.
const describedByConnection = new WeakMap<object, Map<string, Described>>();

/**
 * A statement for pg, whose rows are arrays of their columns in the select list's order. pg
 * copies a query config object descriptor by descriptor (`cloneQueryConfig`: 5 % of the CPU
 * of a read by id); a `Query` made from the text is not copied, and takes the name as its
 * own. A named one's result remembers its columns.
 */
export function statementOf(
  text: string,
  values: readonly unknown[],
  name: string | undefined,
  callback?: (error: Error | undefined, result: QueryResult<unknown[]>) => void,
): Query {
  const statement = new Query(text, [...values], callback);
  const result = (statement as unknown as { _result: ResultColumns })._result;
  result.parseRow = result._parseRowAsArray;
  if (name !== undefined) {
    (statement as { name?: string }).name = name;
    result.addFields = addFieldsOf(name);
  }
  return statement;
}

// One function per statement name (the kit names at most a few hundred statements).
const addFieldsByName = new Map<string, ResultColumns['addFields']>();

function addFieldsOf(name: string): ResultColumns['addFields'] {
  let addFields = addFieldsByName.get(name);
  if (!addFields) {
    addFields = function (this: ResultColumns, fields: FieldDef[]): void {
      addRememberedFields(this, name, fields);
    };
    addFieldsByName.set(name, addFields);
  }
  return addFields;
}

function addRememberedFields(result: ResultColumns, name: string, fields: FieldDef[]): void {
  const described = describedOn(result._types);
  const known = described?.get(name);
  if (known && sameColumns(known.fields, fields)) {
    result.fields = fields;
    result._parsers = known._parsers;
    result._prebuiltEmptyResultObject = known._prebuiltEmptyResultObject;
    return;
  }
  (Object.getPrototypeOf(result) as ResultColumns).addFields.call(result, fields);
  described?.set(name, {
    fields,
    _parsers: result._parsers,
    _prebuiltEmptyResultObject: result._prebuiltEmptyResultObject,
  });
}

// What a connection has described; none outside one (pg's own addFields then, each time).
function describedOn(connection: object | undefined): Map<string, Described> | undefined {
  if (!connection) return undefined;
  let described = describedByConnection.get(connection);
  if (!described) {
    described = new Map();
    describedByConnection.set(connection, described);
  }
  return described;
}

function sameColumns(known: readonly FieldDef[], fields: readonly FieldDef[]): boolean {
  if (known.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i++) {
    const was = known[i];
    const is = fields[i];
    if (was.name !== is.name || was.dataTypeID !== is.dataTypeID || was.format !== is.format) {
      return false;
    }
  }
  return true;
}
