import type { RuntimeState } from './runtime-state';

/** An answer kept on this device but not sent, and why: the form's own checks or the Portal (422) refused it. */
export interface HeldAnswer {
  readonly name: string;
  readonly reason: string;
}

/**
 * What the save status says, most pressing first: the connection, a failed write, a write under way, answers
 * held back because they are not valid, answers waiting for the person's decision (conflicts), then saved.
 */
export type SaveState = 'offline' | 'error' | 'saving' | 'invalid' | 'conflict' | 'saved' | 'idle';

/**
 * The answers autosave holds back and the one status line that follows from the whole state: it never says
 * saved while anything typed is not in the Portal.
 */
export class HeldAnswers {
  private cache: { version: number; held: readonly HeldAnswer[] } | null = null;
  /** Held answers that came back from this device's storage: their fields show why until edited. */
  private restored = new Set<string>();

  constructor(private readonly state: RuntimeState) {}

  /**
   * Edits kept but not sent, with the reason: refused by the Portal (422), or not valid by the contract, so
   * autosave holds them (sendableCheck). Computed at most once per change.
   */
  held(): readonly HeldAnswer[] {
    const { version, autosave, canSend, validator } = this.state;
    if (this.cache?.version === version) return this.cache.held;
    const { pending, rejected } = autosave;
    const held: HeldAnswer[] = [];
    for (const [name, value] of Object.entries(pending)) {
      const refused = rejected[name];
      if (refused !== undefined) held.push({ name, reason: refused });
      else if (!canSend(name, value)) {
        const reason = validator.validateField(name, value, true);
        // Not sendable but nothing to say (a read-only or file field): not something the person can fix.
        if (reason !== null) held.push({ name, reason });
      }
    }
    // The same list as before stays the same object: its subscribers (the save status) skip the keystroke.
    const before = this.cache?.held;
    const same = before !== undefined && before.length === held.length && held.every((h, i) => h.name === before[i]!.name && h.reason === before[i]!.reason);
    this.cache = { version, held: same ? before : held };
    return this.cache.held;
  }

  /** The model or the state changed under the same version (an upgrade, a restore): count again. */
  forget() {
    this.cache = null;
  }

  /** The held answers now are those that came back from the device. */
  markRestored() {
    this.cache = null;
    this.restored = new Set(this.held().map((h) => h.name));
  }

  edited(name: string) {
    this.restored.delete(name);
  }

  /** Why a field restored from this device is not saved; null once it is edited or when it was sendable. */
  restoredReason(name: string): string | null {
    if (!this.restored.has(name)) return null;
    return this.held().find((h) => h.name === name)?.reason ?? null;
  }

  /** `awaitingDevice`: edits kept on this device will be sent once they are brought back, so none is saved yet. */
  status(awaitingDevice: boolean): SaveState {
    const s = this.state.autosave;
    if (s.status === 'offline' || s.status === 'error' || s.status === 'saving') return s.status;
    if (this.held().length > 0) return 'invalid';
    if (s.conflicts.length > 0) return 'conflict';
    if (awaitingDevice) return 'saving';
    return s.status;
  }
}
