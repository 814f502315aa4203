// The oldest Node the service runs on: NestJS 12 is ES modules only, and the SQLite driver is
// built for Node 24. package.json's "engines" says the same (checked by node-version.spec.ts).
export const MINIMUM_NODE = [24, 9] as const;

/** Whether a `process.versions.node` string is at least MINIMUM_NODE. */
export function isSupportedNode(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  const [minimumMajor, minimumMinor] = MINIMUM_NODE;
  return major > minimumMajor || (major === minimumMajor && minor >= minimumMinor);
}

/** What an operator who started the service on the wrong Node reads. */
export function unsupportedNodeMessage(version: string, executable: string): string {
  return [
    `the service needs Node.js ${MINIMUM_NODE.join('.')} or newer;`,
    `this is Node.js ${version} (${executable}).`,
    'Run it on the Node the project installs: `npm start`, or `node_modules/.bin/node .`',
    'from the project folder (see README.md, "Toolchain").',
  ].join(' ');
}
