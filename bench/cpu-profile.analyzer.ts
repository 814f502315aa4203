// Time shares by package from a V8 .cpuprofile: each sample's time goes to the package of
// its frame (self) and, once, to every package on its stack (inclusive).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface PackageShare {
  name: string;
  inclusive: number;
  self: number;
}

// Packages that belong together, reported under one name.
const FAMILIES: [RegExp, string][] = [
  [/^(pino|pino-.+|nestjs-pino|sonic-boom|thread-stream|on-exit-leak-free)$/, 'pino/pino-http'],
  [/^(passport|passport-.+|jsonwebtoken|jws|jwa)$/, 'passport'],
  [/^(express|router|body-parser|finalhandler|send|on-finished|path-to-regexp)$/, 'express'],
  [/^(pg|pg-.+)$/, 'pg'],
];

export function packageOf(url: string, functionName: string): string | undefined {
  if (functionName === '(idle)' || functionName === '(root)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (url.includes('/node_modules/')) {
    const path = url.slice(url.lastIndexOf('/node_modules/') + '/node_modules/'.length);
    const parts = path.split('/');
    const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    return FAMILIES.find(([pattern]) => pattern.test(name))?.[1] ?? name;
  }
  if (url.includes('/libs/resource-kit/')) return 'the kit';
  if (url.includes('/apps/api/')) return 'the app';
  return 'node internals';
}

/** Shares of the busy (non-idle) time, largest inclusive first. */
export function sharesByPackage(profile: CpuProfile): PackageShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((leaf, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(leaf)!.callFrame;
    const own = packageOf(frame.url, frame.functionName);
    if (!own) return;
    busy += time;
    self.set(own, (self.get(own) ?? 0) + time);
    const onStack = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
      const { url, functionName } = byId.get(id)!.callFrame;
      const name = packageOf(url, functionName);
      if (name) onStack.add(name);
    }
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + time);
  });
  return [...inclusive.entries()]
    .map(([name, time]) => ({ name, inclusive: time / busy, self: (self.get(name) ?? 0) / busy }))
    .sort((a, b) => b.inclusive - a.inclusive);
}
