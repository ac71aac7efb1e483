import type { FormValue, FormValues } from './equality';
import type { Conflict, TheirChange, ValueEquality } from './merge';
import { parseName } from './names';

/** The autosave machine's state and the shapes it exchanges with its caller (see autosave-queue.ts). */

export type AutosaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'error';

export type WriteTarget = { readonly kind: 'answers' } | { readonly kind: 'item'; readonly itemId: string };

export interface WriteBatch {
  readonly id: number;
  readonly target: WriteTarget;
  /** Form values by name (lib/forms/values.writesFor turns them into the request body). */
  readonly edits: FormValues;
  readonly answersRevision: number;
  readonly etag: string;
}

export interface AutosaveState {
  readonly status: AutosaveStatus;
  readonly online: boolean;
  readonly answersRevision: number;
  readonly etag: string;
  /** The upstream's values as last known: the base of every merge. */
  readonly server: FormValues;
  /** Edits not sent yet, the latest per name. */
  readonly pending: FormValues;
  readonly inFlight: WriteBatch | null;
  /** Fields both sides changed, waiting for the person (their edits are kept here, not in pending). */
  readonly conflicts: readonly Conflict[];
  /** Fields the upstream changed that were merged in; the UI shows them and then calls acknowledgeTheirs. */
  readonly theirsApplied: readonly TheirChange[];
  /** Fields the upstream refused (422), with its message: kept in pending, not re-sent until edited again. */
  readonly rejected: Readonly<Record<string, string>>;
  /** Edits to items someone else deleted: kept for the person to copy or dismiss, never sent. */
  readonly orphaned: FormValues;
  /**
   * Values of writes whose outcome is unknown (the connection dropped, a 5xx, a reload): the upstream
   * may hold them or the older `server` value. A later merge takes whichever the upstream shows as base.
   */
  readonly uncertain: FormValues;
  readonly burstStartedAt: number | null;
  readonly lastEditAt: number | null;
  /** Send at the next tick without waiting for the debounce (after a merge, a retry, coming online). */
  readonly sendNow: boolean;
  readonly attempt: number;
  readonly retryAt: number | null;
  readonly lastError: string | null;
  readonly nextBatchId: number;
  /** Anything was ever saved or edited: tells 'saved' from 'idle'. */
  readonly touched: boolean;
}

export interface AutosaveOptions {
  /** Quiet time after the last keystroke before a burst is sent. */
  readonly debounceMs?: number;
  /** Longest a burst waits while the person keeps typing. */
  readonly maxWaitMs?: number;
  /** Waits before automatic retries after a failed write; the last repeats. */
  readonly retryDelaysMs?: readonly number[];
  /** Field-aware equality (values.equalityFor(model)); structural otherwise. */
  readonly equal?: ValueEquality;
  /** Whether a value may be sent (validation.sendableCheck(model)): invalid input is kept, not sent. */
  readonly canSend?: (name: string, value: FormValue) => boolean;
}

export interface TickResult {
  readonly state: AutosaveState;
  /** The write to run now, if any. Report its outcome with onSuccess / onConflict / onError / .... */
  readonly send: WriteBatch | null;
  /** When to call tick again (epoch ms), if something is waiting on time. */
  readonly wakeAt: number | null;
}

/** What a 412 (or a fresh read) says the upstream holds now. */
export interface UpstreamState {
  readonly values: FormValues;
  readonly answersRevision: number;
  readonly etag: string;
}

/** What survives a reload: enough to re-apply the edits over whatever the upstream holds by then. */
export interface PersistedAutosave {
  readonly version: 1;
  readonly answersRevision: number;
  readonly etag: string;
  /** The server values the edits were made against, for the edited names only. */
  readonly base: FormValues;
  /** Edits not known to be saved: pending and in flight. */
  readonly edits: FormValues;
  /** Values that may or may not have reached the upstream (see AutosaveState.uncertain). */
  readonly uncertain: FormValues;
  /** Open conflicts stay conflicts after a reload: the person was shown them and has not chosen yet. */
  readonly conflicts: readonly Conflict[];
  readonly orphaned: FormValues;
  /** Edits the upstream refused (422), with its reason: still refused after a reload until edited. */
  readonly rejected?: Readonly<Record<string, string>>;
}

/**
 * Two device copies of one form's edits as one: every name keeps its own base, and `newer`'s entries win.
 * What a page adds to a copy it has not read in yet (restore happens once the whole contract is there).
 */
export function combinePersisted(older: PersistedAutosave, newer: PersistedAutosave): PersistedAutosave {
  const mine = new Set([...Object.keys(newer.edits), ...newer.conflicts.map((c) => c.name)]);
  const theirsOnly = <T>(record: Readonly<Record<string, T>> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).filter(([n]) => !mine.has(n)));
  return {
    ...newer,
    base: { ...theirsOnly(older.base), ...newer.base },
    edits: { ...theirsOnly(older.edits), ...newer.edits },
    uncertain: { ...theirsOnly(older.uncertain), ...newer.uncertain },
    conflicts: [...(Array.isArray(older.conflicts) ? older.conflicts : []).filter((c) => !mine.has(c.name)), ...newer.conflicts],
    orphaned: { ...older.orphaned, ...newer.orphaned },
    rejected: { ...theirsOnly(older.rejected), ...newer.rejected },
  };
}

/** A copy of a record without some names. */
export const without = <T>(values: Readonly<Record<string, T>>, names: Iterable<string>): Record<string, T> => {
  const out: Record<string, T> = { ...values };
  for (const name of names) delete out[name];
  return out;
};

export function targetOf(name: string): WriteTarget | null {
  const parsed = parseName(name);
  if (parsed === null) return null;
  if (parsed.scope === 'answer') return { kind: 'answers' };
  if (parsed.scope === 'item') return { kind: 'item', itemId: parsed.itemId };
  return null;
}

/** The state right after reading the answers: nothing edited, nothing in flight. */
export const initialState = (upstream: UpstreamState): AutosaveState => ({
  status: 'idle',
  online: true,
  answersRevision: upstream.answersRevision,
  etag: upstream.etag,
  server: { ...upstream.values },
  pending: {},
  inFlight: null,
  conflicts: [],
  theirsApplied: [],
  rejected: {},
  orphaned: {},
  uncertain: {},
  burstStartedAt: null,
  lastEditAt: null,
  sendNow: false,
  attempt: 0,
  retryAt: null,
  lastError: null,
  nextBatchId: 1,
  touched: false,
});
