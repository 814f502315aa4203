import { IDLE_MAX_MS, QUICK_MS, RoundPace } from './round-pace';

describe('RoundPace', () => {
  it('waits twice as long after each idle round, up to its slowest pace', () => {
    const pace = new RoundPace();
    const waits = Array.from({ length: 7 }, () => pace.next(false));
    expect(waits).toEqual([QUICK_MS, 200, 400, 800, IDLE_MAX_MS, IDLE_MAX_MS, IDLE_MAX_MS]);
  });

  it('comes back to the quick pace after a round with work', () => {
    const pace = new RoundPace();
    for (let round = 0; round < 5; round += 1) pace.next(false);
    expect(pace.next(true)).toBe(QUICK_MS);
    expect(pace.next(false)).toBe(QUICK_MS);
    expect(pace.next(false)).toBe(200);
  });

  it('comes back to the quick pace when told of a write, and says whether it was slower', () => {
    const pace = new RoundPace();
    expect(pace.quicken()).toBe(false);
    pace.next(false);
    pace.next(false);
    expect(pace.quicken()).toBe(true);
    expect(pace.next(false)).toBe(QUICK_MS);
  });
});

describe('RoundPace.pause', () => {
  it('ends when woken', async () => {
    const pace = new RoundPace();
    const started = Date.now();
    const paused = pace.pause(60_000);
    pace.wake();
    await paused;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('is cut to the quick pace when told of a write', async () => {
    const pace = new RoundPace();
    for (let round = 0; round < 5; round += 1) pace.next(false);
    const started = Date.now();
    const paused = pace.pause(60_000);
    pace.quicken();
    await paused;
    expect(Date.now() - started).toBeGreaterThanOrEqual(QUICK_MS - 5);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
