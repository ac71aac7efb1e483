import type { RepeatableItemView } from '@/lib/bff/items';
import type { AutosaveState, UpstreamState, WriteBatch } from '@/lib/forms';
import type { RuntimeState } from './runtime-state';

/** How one write went, as the autosave machine understands it (components/intake-form/runtime/transport makes it). */
export type SendOutcome =
  | { readonly type: 'success'; readonly answersRevision: number; readonly etag: string }
  | { readonly type: 'conflict'; readonly current: UpstreamState; readonly items?: { blockKey: string; items: RepeatableItemView[] } }
  | { readonly type: 'rejected'; readonly fieldErrors: Record<string, string> }
  | { readonly type: 'gone'; readonly itemId: string }
  | { readonly type: 'offline' }
  | { readonly type: 'error'; readonly message: string };

/** What the loop asks of the rest of the runtime. */
export interface LoopHost {
  readonly state: RuntimeState;
  /** A new autosave state: kept, told, kept on the device, and the loop kicked unless `kick` is false. */
  setAutosave(next: AutosaveState, kick?: boolean): void;
  /** A 412: the upstream's current answers (and items) merged in. */
  conflict(batchId: number, outcome: Extract<SendOutcome, { type: 'conflict' }>, readMark: number): void;
  /** The item a write went to is gone. */
  gone(itemId: string): void;
  /** Taken before a write, so a 412's items read after it are laid over by what this page wrote since. */
  readMark(): number;
  /** The page has left and nothing more will be sent from it. */
  left(): void;
}

const OFFLINE_PROBE_MS = 4_000;

/**
 * The autosave loop (DESIGN.md §4): runs the writes the pure machine (lib/forms/autosave-queue) hands out, one
 * at a time, reports their outcomes to it, and keeps its timers: the quiet time after typing, retries after a
 * failure, and a probe when a request failed while the browser thinks it is online. A page that was left sends
 * what it holds at once, without retries.
 */
export class AutosaveLoop {
  private send: ((batch: WriteBatch) => Promise<SendOutcome>) | null = null;
  private saved: () => void = () => undefined;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probe: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private idleWaiters: Array<() => void> = [];
  /** The page left: send what is sendable now, then stop (leave). */
  leaving = false;

  constructor(private readonly host: LoopHost) {}

  /** Writes go through `send`; `saved` is told after each one that succeeded. */
  start(send: (batch: WriteBatch) => Promise<SendOutcome>, saved: () => void) {
    this.send = send;
    this.saved = saved;
    this.leaving = false;
  }

  /** The page left: no quiet time and no retries any more; `left` is told once nothing more goes out. */
  leave() {
    this.stopTimers();
    this.saved = () => undefined;
    this.leaving = true;
    this.kick();
  }

  stop() {
    this.stopTimers();
    this.send = null;
    this.settleWaiters(true);
  }

  private stopTimers() {
    if (this.timer) clearTimeout(this.timer);
    if (this.probe) clearTimeout(this.probe);
    this.timer = this.probe = null;
  }

  /**
   * Something is in flight or waits to be sent. Held answers (refused, or not valid) wait for the person, not
   * for the network: counting them would keep submit waiting for a save that never comes.
   */
  hasWork(s: AutosaveState): boolean {
    if (s.inFlight !== null) return true;
    const { canSend } = this.host.state;
    for (const [name, value] of Object.entries(s.pending)) {
      if (!Object.hasOwn(s.rejected, name) && canSend(name, value)) return true;
    }
    return false;
  }

  /** Resolves once nothing is waiting to be sent or in flight (conflicts and refusals aside). */
  whenSettled(): Promise<void> {
    const s = this.host.state.autosave;
    if (!this.hasWork(s) || !s.online) return Promise.resolve();
    this.host.setAutosave({ ...s, sendNow: true });
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  kick() {
    if (this.running || this.send === null) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const { state } = this.host;
    // A page that was left waits for no quiet time: whatever is sendable goes now.
    const from = this.leaving && !state.autosave.sendNow && this.hasWork(state.autosave) ? { ...state.autosave, sendNow: true } : state.autosave;
    const { state: next, send, wakeAt } = state.machine.tick(from, Date.now());
    if (next !== state.autosave) {
      state.autosave = next;
      state.changed();
    }
    if (send) void this.run(send);
    else if (this.leaving) this.host.left();
    else if (wakeAt !== null) this.timer = setTimeout(() => this.kick(), Math.max(0, wakeAt - Date.now()));
    else this.settleWaiters();
  }

  private settleWaiters(force = false) {
    const s = this.host.state.autosave;
    if (!force && this.hasWork(s) && s.online && s.lastError === null) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async run(batch: WriteBatch) {
    const send = this.send;
    if (!send) return;
    const { host } = this;
    this.running = true;
    let outcome: SendOutcome;
    const readMark = host.readMark();
    try {
      outcome = await send(batch);
    } catch (e) {
      outcome = { type: 'error', message: e instanceof Error ? e.message : 'Saving failed' };
    }
    this.running = false;
    const { machine: m, autosave: s } = host.state;
    switch (outcome.type) {
      case 'success':
        host.setAutosave(m.onSuccess(s, batch.id, outcome), false);
        this.saved();
        break;
      case 'conflict':
        host.conflict(batch.id, outcome, readMark);
        break;
      case 'rejected':
        host.setAutosave(m.onRejected(s, batch.id, outcome.fieldErrors), false);
        break;
      case 'gone':
        host.gone(outcome.itemId);
        break;
      case 'offline':
        host.setAutosave(m.onOffline(s), false);
        if (!this.leaving) this.scheduleProbe();
        break;
      case 'error':
        host.setAutosave(m.onError(s, batch.id, outcome.message, Date.now()), false);
        break;
    }
    this.kick();
  }

  /** Offline because a request failed while the browser thinks it is online: try again in a while. */
  private scheduleProbe() {
    if (this.probe) clearTimeout(this.probe);
    this.probe = setTimeout(() => {
      this.probe = null;
      const { state } = this.host;
      if (!state.autosave.online && (typeof navigator === 'undefined' || navigator.onLine !== false)) {
        this.host.setAutosave(state.machine.onOnline(state.autosave));
      }
    }, OFFLINE_PROBE_MS);
  }
}
