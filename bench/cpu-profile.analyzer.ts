// Time shares by package from a V8 .cpuprofile: each sample's time goes to the package of
// its frame (self) and, once, to every package on its stack (inclusive).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  endTime: number;
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

/**
 * The package a frame's code belongs to; undefined for frames without a script of their own
 * (V8 builtins such as JSON.stringify, (root)), whose time counts for their caller's package.
 */
function packageOf(url: string, functionName: string): string | undefined {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'node internals';
  // ajv compiles each schema into a generated function with no script.
  if (url === '') return /^validate\d*$/.test(functionName) ? 'ajv' : undefined;
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

/**
 * Shares of the busy (non-idle) time in the profile's last `seconds`, largest inclusive
 * first. The window leaves out the start-up, which --cpu-prof records too.
 */
export function sharesByPackage(profile: CpuProfile, seconds: number): PackageShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  const windowStart = profile.endTime - seconds * 1e6;
  let sampledAt = profile.endTime - profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  let busy = 0;
  profile.samples.forEach((leaf, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    sampledAt += time;
    if (sampledAt < windowStart) return;
    if (byId.get(leaf)!.callFrame.functionName === '(idle)') return;
    // Packages from the leaf to the root: the first one takes the self time.
    const onStack = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
      const { url, functionName } = byId.get(id)!.callFrame;
      const name = packageOf(url, functionName);
      if (name) onStack.add(name);
    }
    const own = onStack.values().next().value ?? 'node internals';
    busy += time;
    self.set(own, (self.get(own) ?? 0) + time);
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + time);
  });
  return [...inclusive.entries()]
    .map(([name, time]) => ({ name, inclusive: time / busy, self: (self.get(name) ?? 0) / busy }))
    .sort((a, b) => b.inclusive - a.inclusive);
}
