import { dirname, join } from 'node:path';
import { assertLibraryMajor } from './library-major';

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
