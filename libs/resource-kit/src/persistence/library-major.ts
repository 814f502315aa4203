import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Refuses to load a module of the kit that reads a library's internals when the installed
 * library is of another major than the one it was written for.
 * @param packageDirectory the folder of the library's package.json
 * @param reader the kit's module that reads the internals, named in the error
 */
export function assertLibraryMajor(
  library: string,
  packageDirectory: string,
  major: number,
  reader: string,
): void {
  const { version } = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
    version: string;
  };
  if (Number(version.split('.')[0]) !== major) {
    throw new Error(
      `resource-kit reads ${library} ${major}.x internals (${reader}); this is ${library} ${version}`,
    );
  }
}
