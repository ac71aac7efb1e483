import { combinePersisted, type PersistedAutosave } from '@/lib/forms';
import { whenIdle } from './scheduling';

const STORAGE_PREFIX = 'intake-form:';
/** Longest the device copy of the edits waits for an idle moment. */
const PERSIST_WITHIN_MS = 500;

/**
 * Pages of a form that were left (unmounted, as a link of the app or the back button does) while still
 * sending what they held, by device key. A page of the same form opened meanwhile reads the device copy
 * once they are done with it, so none overwrites another's edits.
 */
const leavingPages = new Map<string, Map<DeviceCopy, { done: Promise<void>; finish: () => void }>>();

const isEmptyCopy = (saved: PersistedAutosave) =>
  Object.keys(saved.edits).length === 0 && saved.conflicts.length === 0 && Object.keys(saved.orphaned).length === 0;

/**
 * The edits of one form kept in this browser's storage (per person and application), so a reload, a lost
 * connection or a closed tab loses nothing: written when the page is idle, at once when it goes away. A page
 * brings the copy back once (the runtime's restoreFromDevice); until then it writes nothing over it, and a page
 * going away only adds its own edits to it. Without storage (the server, private mode) it keeps nothing.
 */
export class DeviceCopy {
  /** The copy was read into the page (or there was none): from now on the page's state is the copy. */
  restored = false;
  /** Edits kept here wait to be brought back: until then nothing can be called saved. */
  awaiting = false;
  private awaitingWaiters: Array<() => void> = [];
  /** A write waiting for an idle moment; cancels it. */
  private later: (() => void) | null = null;

  constructor(
    private readonly key: string | null,
    /** The page's edits as a copy to keep, as they are now. */
    private readonly copy: () => PersistedAutosave,
  ) {}

  private get usable(): boolean {
    return this.key !== null && typeof localStorage !== 'undefined';
  }

  read(): PersistedAutosave | null {
    if (!this.usable) return null;
    try {
      const raw = localStorage.getItem(STORAGE_PREFIX + this.key);
      const parsed = raw ? (JSON.parse(raw) as PersistedAutosave) : null;
      return parsed && parsed.version === 1 ? parsed : null;
    } catch {
      return null;
    }
  }

  private write(saved: PersistedAutosave) {
    try {
      if (isEmptyCopy(saved)) localStorage.removeItem(STORAGE_PREFIX + this.key);
      else localStorage.setItem(STORAGE_PREFIX + this.key, JSON.stringify(saved));
    } catch {
      // Storage full or refused (private mode): the edits still live in this page and keep saving.
    }
  }

  /** Not brought back yet: the page's own edits are added to the copy, and nothing in it is replaced. */
  private addToStored() {
    const mine = this.copy();
    if (isEmptyCopy(mine)) return;
    const stored = this.read();
    this.write(stored === null ? mine : combinePersisted(stored, mine));
  }

  /**
   * Writes the copy once the page is idle (after the keystroke's paint: serializing into localStorage is
   * synchronous), at most one write per idle moment; only once the copy was brought back.
   */
  persist() {
    if (!this.usable || !this.restored || this.later !== null) return;
    this.later = whenIdle(() => {
      this.later = null;
      this.persistNow();
    }, PERSIST_WITHIN_MS);
  }

  /** Writes the copy at once (the page goes away, or is hidden). */
  persistNow() {
    this.later?.();
    this.later = null;
    if (!this.usable) return;
    if (this.restored) return this.write(this.copy());
    if (!this.awaiting) return;
    this.addToStored();
    // A page of this form left before this one may still write its whole copy over it: add again after that.
    const before = this.leftBefore();
    if (before !== null) void before.then(() => !this.restored && this.addToStored());
  }

  /** After submit nothing is left to keep. */
  clear() {
    this.later?.();
    this.later = null;
    if (this.usable) localStorage.removeItem(STORAGE_PREFIX + this.key);
  }

  /** Kept edits wait to be brought back; true when that is news. */
  await(): boolean {
    if (this.awaiting) return false;
    this.awaiting = true;
    return true;
  }

  /** Brought back (or found empty); true when the page was waiting for it. */
  markRestored(): boolean {
    this.restored = true;
    if (!this.awaiting) return false;
    this.awaiting = false;
    for (const w of this.awaitingWaiters.splice(0)) w();
    return true;
  }

  whenRestored(): Promise<void> {
    if (!this.awaiting) return Promise.resolve();
    return new Promise((resolve) => this.awaitingWaiters.push(resolve));
  }

  // ---- pages of one form in this tab --------------------------------------------------------

  /** Other pages of this form, left and still sending: their copies are final once this resolves. */
  leftBefore(): Promise<void> | null {
    const others = [...(leavingPages.get(this.key ?? '') ?? new Map<DeviceCopy, { done: Promise<void> }>())].filter(([page]) => page !== this);
    return others.length === 0 ? null : Promise.all(others.map(([, e]) => e.done)).then(() => undefined);
  }

  startLeaving() {
    if (this.key === null) return;
    const pages = leavingPages.get(this.key) ?? new Map();
    if (pages.has(this)) return;
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    pages.set(this, { done, finish });
    leavingPages.set(this.key, pages);
  }

  doneLeaving() {
    const pages = this.key === null ? undefined : leavingPages.get(this.key);
    const entry = pages?.get(this);
    if (pages === undefined || entry === undefined) return;
    pages.delete(this);
    if (pages.size === 0) leavingPages.delete(this.key as string);
    entry.finish();
  }
}
