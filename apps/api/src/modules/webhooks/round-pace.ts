// The quick pace: while there is work, and after a write of this instance.
export const QUICK_MS = 100;
// The slowest pace of an idle worker.
export const IDLE_MAX_MS = 1_000;

/**
 * How long the webhook worker waits between rounds: 100 ms while there is work, then twice as
 * long after each idle round, up to a second. An instance with nothing to deliver costs the
 * database a round a second instead of ten; a write of this instance brings the quick pace
 * back, so that its event is handed out soon after the commit.
 */
export class RoundPace {
  private idleWait = QUICK_MS;

  /** The wait after a round that found work (`busy`) or none. */
  next(busy: boolean): number {
    if (busy) this.idleWait = QUICK_MS;
    const wait = this.idleWait;
    if (!busy) this.idleWait = Math.min(2 * this.idleWait, IDLE_MAX_MS);
    return wait;
  }

  /** Back to the quick pace; whether the pace was slower. */
  quicken(): boolean {
    const slowed = this.idleWait > QUICK_MS;
    this.idleWait = QUICK_MS;
    return slowed;
  }
}
