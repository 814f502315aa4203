import { availableParallelism, loadavg } from 'node:os';

// How much busier than one job per core the machine is now: 1 when it is not, at most 4.
const FACTOR = Math.min(4, Math.max(1, loadavg()[0] / availableParallelism()));

/**
 * A wait or a test time limit, stretched by the machine's load: on a machine shared with other
 * work, a start or a request takes longer, and a fixed limit would fail a spec that is right.
 * Assertions never depend on speed; only how long a spec waits before giving up does.
 */
export function scaledMs(ms: number): number {
  return Math.round(ms * FACTOR);
}
