import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The kit's folders import one another in one direction only: a type that two folders share
// lives below both, so no import runs in a circle or climbs back up (file-level circles are
// `madge --circular`'s, in `npm run lint`).
const ROOT = __dirname;
const IMPORT = /from '\.\.\/([a-z-]+)\//g;

function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const folder of readdirSync(ROOT, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const targets = new Set<string>();
    for (const file of readdirSync(join(ROOT, folder.name))) {
      if (!file.endsWith('.ts') || file.endsWith('.spec.ts')) continue;
      const source = readFileSync(join(ROOT, folder.name, file), 'utf8');
      for (const [, target] of source.matchAll(IMPORT)) targets.add(target);
    }
    graph.set(folder.name, targets);
  }
  return graph;
}

// A cycle of folders, as a path, or undefined (depth-first search).
function cycleIn(graph: Map<string, Set<string>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (folder: string, path: string[]): string[] | undefined => {
    if (path.includes(folder)) return [...path.slice(path.indexOf(folder)), folder];
    if (done.has(folder)) return undefined;
    for (const target of graph.get(folder) ?? []) {
      const cycle = visit(target, [...path, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return undefined;
  };
  for (const folder of graph.keys()) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return undefined;
}

// Lowest first, as the kit README's "Layout" lists them: each imports only those before it.
const LAYERS = [
  'errors',
  'metadata',
  'validation',
  'query',
  'serialization',
  'conditional',
  'persistence',
  'http',
  'auth',
  'idempotency',
  'decorators',
  'service',
  'operations',
  'openapi',
  'contract',
  'controller',
];

describe('the kit\u2019s folders', () => {
  it('import one another without a circle', () => {
    expect(cycleIn(folderImports())).toBeUndefined();
  });

  it('import only the folders below them, never back up', () => {
    const graph = folderImports();
    expect([...graph.keys()].sort()).toEqual([...LAYERS].sort());
    const climbing = [...graph].flatMap(([folder, targets]) =>
      [...targets]
        .filter((target) => LAYERS.indexOf(target) >= LAYERS.indexOf(folder))
        .map((target) => `${folder} -> ${target}`),
    );
    expect(climbing).toEqual([]);
  });

  it('find a circle when there is one', () => {
    const graph = new Map([
      ['query', new Set(['controller'])],
      ['controller', new Set(['query'])],
    ]);
    expect(cycleIn(graph)).toEqual(['query', 'controller', 'query']);
  });
});
