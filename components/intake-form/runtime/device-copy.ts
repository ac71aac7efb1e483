import { combinePersisted, type PersistedAutosave } from '@/lib/forms';
import { whenIdle } from './scheduling';

const STORAGE_PREFIX = 'intake-form:';
/** Longest the device copy of the edits waits for an idle moment. */
const PERSIST_WITHIN_MS = 500;

/**
 * Pages of a form that were left (unmounted, as a link of the app or the back button does) while still
 * sending what they held, by device key. A page of the same form opened meanwhile reads the device copy
 * once that page is done with it, so neither overwrites the other's edits.
 */
const leavingPages = new Map<string, { owner: object; done: Promise<void>; finish: () => void }>();

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

  constructor(private readonly key: string | null) {}

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

  /**
   * Writes the copy once the page is idle (after the keystroke's paint: serializing into localStorage is
   * synchronous), at most one write per idle moment; only once the copy was brought back.
   */
  persist(copy: () => PersistedAutosave) {
    if (!this.usable || !this.restored || this.later !== null) return;
    this.later = whenIdle(() => {
      this.later = null;
      this.persistNow(copy());
    }, PERSIST_WITHIN_MS);
  }

  /** Writes the copy at once (the page goes away, or is hidden). */
  persistNow(copy: PersistedAutosave) {
    this.later?.();
    this.later = null;
    if (!this.usable || (!this.restored && !this.awaiting)) return;
    let saved = copy;
    // Not brought back yet: the page's own edits are added to the copy, and nothing in it is replaced.
    if (!this.restored) {
      if (isEmptyCopy(saved)) return;
      const stored = this.read();
      if (stored !== null) saved = combinePersisted(stored, saved);
    }
    try {
      if (isEmptyCopy(saved)) localStorage.removeItem(STORAGE_PREFIX + this.key);
      else localStorage.setItem(STORAGE_PREFIX + this.key, JSON.stringify(saved));
    } catch {
      // Storage full or refused (private mode): the edits still live in this page and keep saving.
    }
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

  /** Another page of this form, left and still sending: its copy is final once this resolves. */
  leftBefore(owner: object): Promise<void> | null {
    const entry = this.key === null ? undefined : leavingPages.get(this.key);
    return entry === undefined || entry.owner === owner ? null : entry.done;
  }

  startLeaving(owner: object) {
    if (this.key === null) return;
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    leavingPages.set(this.key, { owner, done, finish });
  }

  doneLeaving(owner: object) {
    const entry = this.key === null ? undefined : leavingPages.get(this.key);
    if (entry?.owner !== owner) return;
    leavingPages.delete(this.key as string);
    entry.finish();
  }
}
