// The quick pace: while there is work, and after a write of this instance.
export const QUICK_MS = 100;
// The slowest pace of an idle worker.
export const IDLE_MAX_MS = 1_000;

/**
 * How long a worker that polls the database (webhook deliveries, event listeners) waits between
 * rounds: 100 ms while there is work, then twice as long after each idle round, up to a second.
 * An instance with nothing to do costs the database a round a second instead of ten; a write of
 * this instance brings the quick pace back, so that its event is taken up soon after the commit.
 */
export class RoundPace {
  private idleWait = QUICK_MS;
  private wakeUp?: () => void;
  private shorten?: () => void;

  /** The wait after a round that found work (`busy`) or none. */
  next(busy: boolean): number {
    if (busy) this.idleWait = QUICK_MS;
    const wait = this.idleWait;
    if (!busy) this.idleWait = Math.min(2 * this.idleWait, IDLE_MAX_MS);
    return wait;
  }

  /** Back to the quick pace, a pause in progress cut to it; whether the pace was slower. */
  quicken(): boolean {
    const slowed = this.idleWait > QUICK_MS;
    this.idleWait = QUICK_MS;
    if (slowed) this.shorten?.();
    return slowed;
  }

  /** Ends the pause in progress now (the worker is stopping, or has work it just learnt of). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Waits `ms`, unless woken, or cut to the quick pace by `quicken`. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = this.shorten = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.wakeUp = done;
      if (ms > QUICK_MS) {
        this.shorten = () => {
          clearTimeout(timer);
          timer = setTimeout(done, QUICK_MS);
        };
      }
    });
  }
}
