import { availableParallelism, loadavg } from 'node:os';

// How much busier than one job per core the machine is now: 1 when it is not, at most 4. In a
// jest run, at least the suite's own load (a busy process per worker, and the servers they
// start; jest.config.js sets TEST_WORKERS), which the load average shows only a minute later.
const CORES = availableParallelism();
const OWN = process.env.TEST_WORKERS ? (Number(process.env.TEST_WORKERS) + 1) / CORES : 1;
const FACTOR = Math.min(4, Math.max(1, loadavg()[0] / CORES, OWN));

/**
 * A wait or a test time limit, stretched by the machine's load: on a machine shared with other
 * work, a start or a request takes longer, and a fixed limit would fail a spec that is right.
 * Assertions never depend on speed; only how long a spec waits before giving up does.
 */
export function scaledMs(ms: number): number {
  return Math.round(ms * FACTOR);
}
