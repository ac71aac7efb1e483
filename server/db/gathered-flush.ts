import 'server-only';

/**
 * One writer's schedule for work noted in memory and stored later in batches: what is noted within `gatherMs`
 * goes in together, one flush runs at a time, and what is noted while one runs is taken by that flush's next
 * turn (`drain` loops until nothing is left). The embedded database runs on the app's own thread, so a
 * statement after every reply would still hold up the next request; gathering makes it one per burst.
 */
export class GatheredFlush {
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly gatherMs: number,
  ) {}

  /** Something was noted: it goes with whatever else comes within gatherMs, or with the flush under way. */
  soon() {
    if (!this.running) this.timer ??= setTimeout(() => this.now(), this.gatherMs);
  }

  /** Flushes at once (or lets the flush under way take it). */
  now() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running ??= this.run();
  }

  /** Resolves once everything noted so far is flushed. */
  async settled(): Promise<void> {
    if (this.timer) this.now();
    while (this.running) await this.running;
  }

  private async run() {
    try {
      await this.drain();
    } finally {
      this.running = null;
    }
  }
}
