import { resolve } from 'node:path';
import type { BenchOptions } from './options';
import { measure, portOf, SCENARIOS, ServerResults, VARIANT_PORT } from './scenarios';
import { RunningServer } from './servers';

export interface AgainstResults {
  /** The other checkout, as given. */
  root: string;
  current: ServerResults;
  previous: ServerResults;
}

/**
 * `--against DIR`: this build's service and the one built in DIR, side by side, one process
 * each, every scenario on one right after the other (a change measured against its base).
 */
export async function measureAgainst(options: BenchOptions): Promise<AgainstResults> {
  const root = resolve(options.against!);
  const [current, previous] = await Promise.all([
    RunningServer.start({ kind: 'service', port: portOf('service'), processes: 1 }, 'current'),
    RunningServer.start({ kind: 'service', port: VARIANT_PORT, processes: 1, root }, 'previous'),
  ]);
  const results: AgainstResults = { root, current: {}, previous: {} };
  try {
    process.stdout.write('against:');
    for (const { name } of SCENARIOS) {
      process.stdout.write(` ${name}`);
      results.current[name] = await measure(current, name, options);
      results.previous[name] = await measure(previous, name, options);
    }
    process.stdout.write('\n');
  } finally {
    await Promise.all([current.stop(), previous.stop()]);
  }
  return results;
}
