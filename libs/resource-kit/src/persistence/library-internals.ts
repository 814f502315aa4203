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

/**
 * Refuses to load a module of the kit that calls a library's internal functions when one of
 * them is missing: a minor release may rename an internal, and the kit must say so at start,
 * not at the first request that reaches it.
 * @param holder the library's object that carries the functions
 * @param names the functions the reader calls, as `holder` names them
 * @param holderName how the error names the holder
 */
export function assertLibraryFunctions(
  library: string,
  holder: object | undefined,
  holderName: string,
  names: readonly string[],
  reader: string,
): void {
  const members = (holder ?? {}) as Record<string, unknown>;
  const missing = names.filter((name) => typeof members[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `resource-kit calls ${missing.map((name) => `${holderName}.${name}`).join(', ')} of ${library} ` +
        `(${reader}); this ${library} has no such function`,
    );
  }
}
