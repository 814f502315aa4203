import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { databaseFailure } from './database-errors';

const driverError = (code: unknown, message = 'driver says no') =>
  Object.assign(new Error(message), { code });
const queryFailed = (code: unknown, message?: string) =>
  new QueryFailedError('INSERT INTO widgets ...', [], driverError(code, message));

const UNIQUE = { status: 409, messages: ['a resource with this unique value already exists'] };
const RELATED = { status: 409, messages: ['the change conflicts with related resources'] };
const UNAVAILABLE = {
  status: 503,
  messages: ['the database is unavailable; try again later'],
  headers: { 'Retry-After': '5' },
};

describe('databaseFailure', () => {
  it.each(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'])(
    'maps a unique violation (%s) to 409',
    (code) => expect(databaseFailure(queryFailed(code))).toEqual(UNIQUE),
  );

  it.each(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY'])(
    'maps a foreign key violation (%s) to 409',
    (code) => expect(databaseFailure(queryFailed(code))).toEqual(RELATED),
  );

  it("maps SQLite's ON DELETE RESTRICT (a trigger constraint on a foreign key) to 409", () => {
    expect(
      databaseFailure(queryFailed('SQLITE_CONSTRAINT_TRIGGER', 'FOREIGN KEY constraint failed')),
    ).toEqual(RELATED);
    expect(
      databaseFailure(queryFailed('SQLITE_CONSTRAINT_TRIGGER', 'raised by a trigger')),
    ).toBeUndefined();
  });

  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    '57P01',
    '57P02',
    '57P03',
    '53300',
    '08006',
    '08001',
    '25006',
  ])('maps the PostgreSQL connection failure %s to 503 with Retry-After', (code) =>
    expect(databaseFailure(queryFailed(code))).toEqual(UNAVAILABLE),
  );

  it('maps a transaction whose connection TypeORM already let go of (it died) to 503', () => {
    expect(databaseFailure(new QueryRunnerAlreadyReleasedError())).toEqual(UNAVAILABLE);
  });

  it('maps a busy SQLite database to 503', () => {
    expect(databaseFailure(queryFailed('SQLITE_BUSY'))).toEqual(UNAVAILABLE);
  });

  it('reads the code of a driver error that is not wrapped in a QueryFailedError', () => {
    // A connection that fails before any query is not a QueryFailedError.
    expect(databaseFailure(driverError('ECONNREFUSED'))).toEqual(UNAVAILABLE);
    expect(databaseFailure(driverError('23505'))).toEqual(UNIQUE);
  });

  it('maps an unknown code whose message speaks of the connection to 503', () => {
    expect(databaseFailure(driverError('XX000', 'Connection terminated unexpectedly'))).toEqual(
      UNAVAILABLE,
    );
    expect(databaseFailure(driverError('XX000', 'query read timeout'))).toEqual(UNAVAILABLE);
  });

  it('maps a query whose connection was cut, which pg reports without a code, to 503', () => {
    expect(databaseFailure(queryFailed(undefined, 'Connection terminated unexpectedly'))).toEqual(
      UNAVAILABLE,
    );
  });

  it("maps pg's pool losing or never making a connection, raw and without a code, to 503", () => {
    expect(databaseFailure(new Error('Connection terminated unexpectedly'))).toEqual(UNAVAILABLE);
    expect(databaseFailure(new Error('timeout exceeded when trying to connect'))).toEqual(
      UNAVAILABLE,
    );
    expect(
      databaseFailure(new Error('Client has encountered a connection error and is not queryable')),
    ).toEqual(UNAVAILABLE);
    expect(databaseFailure(new Error('Client was closed and is not queryable'))).toEqual(
      UNAVAILABLE,
    );
    expect(databaseFailure(new Error('the connection of the widget is odd'))).toBeUndefined();
  });

  it.each([
    ['a NOT NULL violation', '23502'],
    ['a syntax error', '42601'],
    ['a missing table', '42P01'],
    ['a SQLite NOT NULL constraint', 'SQLITE_CONSTRAINT_NOTNULL'],
    ['a generic SQLite error', 'SQLITE_ERROR'],
  ])('leaves %s (%s) to the 500 handler', (_case, code) => {
    expect(databaseFailure(queryFailed(code))).toBeUndefined();
  });

  it.each([
    ['a plain Error', new Error('boom')],
    ['an Error with a numeric code', driverError(23505)],
    ['a QueryFailedError without a code', queryFailed(undefined)],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
    ['undefined', undefined],
  ])('returns undefined for %s', (_case, exception) => {
    expect(databaseFailure(exception)).toBeUndefined();
  });
});
