import { ConfigurationError } from '../config/environment';
import { reasonOf } from './exit';

describe('reasonOf', () => {
  const failure = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('names DATABASE_URL, without its password, when the database cannot be used', () => {
    const env = { DATABASE_URL: 'postgres://shop:secret@db.internal:5432/shop' };
    expect(reasonOf(failure('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED'), env)).toBe(
      'cannot use the database at DATABASE_URL (postgres://shop@db.internal:5432/shop): connect ECONNREFUSED 10.0.0.5:5432',
    );
    expect(reasonOf(failure('password authentication failed', '28P01'), env)).toMatch(
      /^cannot use the database at DATABASE_URL \(postgres:\/\/shop@db\.internal:5432\/shop\): /,
    );
  });

  it('names SQLITE_PATH when the SQLite file cannot be opened', () => {
    expect(
      reasonOf(failure('unable to open database file', 'SQLITE_CANTOPEN'), {
        SQLITE_PATH: '/read-only/api.sqlite',
      }),
    ).toBe(
      'cannot open the SQLite file at SQLITE_PATH (/read-only/api.sqlite): unable to open database file',
    );
  });

  it('says the configuration problems, or the message of anything else', () => {
    expect(
      reasonOf(new ConfigurationError(['PORT must be a port', 'NODE_ENV must be one of'])),
    ).toBe('invalid configuration: PORT must be a port; NODE_ENV must be one of');
    expect(reasonOf(failure('duplicate key', '23505'), {})).toBe('duplicate key');
    expect(reasonOf('a string')).toBe('a string');
  });
});
