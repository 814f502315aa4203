import { dirname, join } from 'node:path';
import { assertLibraryFunctions, assertLibraryMajor } from './library-internals';
// Loading it runs its checks on the installed pg.
import { statementOf } from './pg-statements';

describe('assertLibraryMajor', () => {
  const pg = join(dirname(require.resolve('pg')), '..');

  it('accepts the installed major', () => {
    expect(() => assertLibraryMajor('pg', pg, 8, 'a-reader.ts')).not.toThrow();
  });

  it('refuses another major, naming the library, its version and the reader', () => {
    expect(() => assertLibraryMajor('pg', pg, 9, 'a-reader.ts')).toThrow(
      /^resource-kit reads pg 9\.x internals \(a-reader\.ts\); this is pg 8\.\d+\.\d+$/,
    );
  });
});

describe('assertLibraryFunctions', () => {
  const result = { addFields: () => undefined, parseRow: () => undefined, fields: [] };

  it('accepts a holder that has every function', () => {
    expect(() =>
      assertLibraryFunctions('pg', result, 'Result', ['addFields', 'parseRow'], 'a-reader.ts'),
    ).not.toThrow();
  });

  it('refuses a missing function or a member that is no function, naming each', () => {
    expect(() =>
      assertLibraryFunctions(
        'pg',
        result,
        'Result',
        ['addFields', '_parseRowAsArray', 'fields'],
        'a-reader.ts',
      ),
    ).toThrow(
      /^resource-kit calls Result\._parseRowAsArray, Result\.fields of pg \(a-reader\.ts\); this pg has no such function$/,
    );
  });

  it('refuses a holder that is not there', () => {
    expect(() =>
      assertLibraryFunctions('pg', undefined, 'Result', ['addFields'], 'a-reader.ts'),
    ).toThrow(/Result\.addFields of pg/);
  });

  it('passes on the installed pg, whose results the kit reads as arrays', () => {
    expect(statementOf('SELECT 1', [], undefined)).toBeDefined();
  });
});
