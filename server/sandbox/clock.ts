/**
 * The sandbox's clock for simulated work (Autofill file reading and runs, webhook back-off). Tests can
 * speed it up through the test controls: a speed of 10 makes a 5 s step take 0.5 s of real time.
 */
export class Clock {
  private speed = 1;
  private readonly timers = new Set<NodeJS.Timeout>();

  setSpeed(speed: number) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error('clock speed must be a positive number');
    this.speed = speed;
  }

  getSpeed() {
    return this.speed;
  }

  now() {
    return new Date();
  }

  /** Runs `fn` after `ms` of simulated time; the timer never keeps the process alive. */
  after(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, Math.max(0, ms / this.speed));
    t.unref();
    this.timers.add(t);
    return () => {
      clearTimeout(t);
      this.timers.delete(t);
    };
  }

  /** Cancels every pending timer (on close and on reset). */
  cancelAll() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
