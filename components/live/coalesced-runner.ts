/**
 * Runs an async task on request, at most one at a time: requests within `delayMs` of each other become
 * one run, and requests during a run cause exactly one more run after it. The task of the latest request
 * is the one run. Stopped, it runs nothing more until started again.
 */
export class CoalescedRunner {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private again = false;
  private active = true;
  private task: () => Promise<void> = async () => {};

  constructor(private readonly delayMs: number) {}

  request(task: () => Promise<void>) {
    if (!this.active) return;
    this.task = task;
    if (this.running) return void (this.again = true);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, this.delayMs);
  }

  start() {
    this.active = true;
  }

  stop() {
    this.active = false;
    this.again = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run() {
    this.running = true;
    try {
      await this.task();
    } catch {
      // The task reports its own failures; a later request runs it again.
    } finally {
      this.running = false;
      if (this.again && this.active) {
        this.again = false;
        void this.run();
      }
    }
  }
}
