import { reconcile } from './autosave-reconcile';
import {
  initialState,
  targetOf,
  without,
  type AutosaveOptions,
  type AutosaveState,
  type AutosaveStatus,
  type PersistedAutosave,
  type TickResult,
  type UpstreamState,
  type WriteBatch,
  type WriteTarget,
} from './autosave-state';
import { valuesEqual, type FormValue } from './equality';
import type { ConflictChoice, ValueEquality } from './merge';

/**
 * Autosave as a pure state machine (DESIGN.md §4: debounced, batched per burst, visible, nothing lost).
 * No timers and no I/O inside: the caller passes `now`, runs the write `tick` hands it, reports the
 * outcome, and sets a timer for `wakeAt`. The state is plain JSON, so it can be kept in localStorage
 * (see `persist` / `restore`) and survive a reload or a lost connection.
 *
 * At most one write is in flight, because every write moves the one answers_revision that the next must
 * quote. A batch goes to one target (answers/ or one repeatable item), so a burst that touched several
 * items is sent as consecutive writes.
 */

export { combinePersisted, initialState, targetOf } from './autosave-state';
export type {
  AutosaveOptions,
  AutosaveState,
  AutosaveStatus,
  PersistedAutosave,
  TickResult,
  UpstreamState,
  WriteBatch,
  WriteTarget,
} from './autosave-state';

const DEFAULTS = { debounceMs: 800, maxWaitMs: 5_000, retryDelaysMs: [1_000, 2_000, 5_000, 10_000, 30_000] };

const targetKey = (target: WriteTarget): string => (target.kind === 'answers' ? 'a' : `i:${target.itemId}`);

export interface AutosaveMachine {
  init(upstream: UpstreamState): AutosaveState;
  /** A change to one field, as the form holds it. */
  edit(state: AutosaveState, name: string, value: FormValue, now: number): AutosaveState;
  tick(state: AutosaveState, now: number): TickResult;
  onSuccess(state: AutosaveState, batchId: number, result: { answersRevision: number; etag: string }): AutosaveState;
  /** A 412: three-way merge with the upstream now; my changes are queued again, conflicts kept for the person. */
  onConflict(state: AutosaveState, batchId: number, current: UpstreamState): AutosaveState;
  /** A transient failure (5xx, timeout): the batch goes back to pending and is retried after a back-off. */
  onError(state: AutosaveState, batchId: number, message: string, now: number): AutosaveState;
  /** A 422: the named fields are held (with the upstream's message) until edited; the rest are re-sent. */
  onRejected(state: AutosaveState, batchId: number, fieldErrors: Readonly<Record<string, string>>): AutosaveState;
  /** The item a batch wrote to is gone (404): its edits are kept aside in `orphaned`, never re-sent. */
  onItemGone(state: AutosaveState, itemId: string): AutosaveState;
  /** The connection is gone (network error, or the browser's offline event). */
  onOffline(state: AutosaveState): AutosaveState;
  onOnline(state: AutosaveState): AutosaveState;
  /** Retry now rather than at the back-off's time. */
  retry(state: AutosaveState): AutosaveState;
  resolve(state: AutosaveState, name: string, choice: ConflictChoice): AutosaveState;
  /** The person deleted an item: its unsent edits go with it. */
  forgetItem(state: AutosaveState, itemId: string): AutosaveState;
  /** A fresh read of the upstream (e.g. after Autofill): merged like a 412, nothing in flight is touched. */
  refresh(state: AutosaveState, current: UpstreamState): AutosaveState;
  acknowledgeTheirs(state: AutosaveState): AutosaveState;
  dismissOrphaned(state: AutosaveState, names?: readonly string[]): AutosaveState;
  persist(state: AutosaveState): PersistedAutosave;
  restore(saved: PersistedAutosave, current: UpstreamState): AutosaveState;
  /**
   * Edits kept on this device, brought into a page that has been working already (a form opened on one
   * section restores once it has the whole contract): restored like `restore` against the upstream this
   * state knows, while every field the page itself has touched since keeps the page's newer edit.
   */
  restoreInto(state: AutosaveState, saved: PersistedAutosave): AutosaveState;
  /** Names whose latest value is not saved upstream yet (pending, in flight, conflicting, held). */
  unsavedNames(state: AutosaveState): string[];
}

export function autosaveMachine(options: AutosaveOptions = {}): AutosaveMachine {
  const debounceMs = options.debounceMs ?? DEFAULTS.debounceMs;
  const maxWaitMs = options.maxWaitMs ?? DEFAULTS.maxWaitMs;
  const retryDelays = options.retryDelaysMs?.length ? options.retryDelaysMs : DEFAULTS.retryDelaysMs;
  const equal: ValueEquality = options.equal ?? ((_n, a, b) => valuesEqual(a, b));
  const canSend = options.canSend ?? (() => true);

  const sendable = (state: AutosaveState): string[] =>
    Object.keys(state.pending).filter(
      (name) =>
        !Object.hasOwn(state.rejected, name) && targetOf(name) !== null && canSend(name, state.pending[name] ?? null),
    );

  /** The status follows from the rest of the state, so no transition can leave it stale. */
  const settle = (state: AutosaveState): AutosaveState => {
    let status: AutosaveStatus;
    if (!state.online) status = 'offline';
    else if (state.lastError !== null) status = 'error';
    else if (state.inFlight !== null || sendable(state).length > 0) status = 'saving';
    else status = state.touched ? 'saved' : 'idle';
    return status === state.status ? state : { ...state, status };
  };

  /**
   * Puts a batch's edits back in pending; edits made since it left are newer and win. A write that was
   * refused (412, 422, 404) changed nothing; one whose outcome is unknown may have been saved.
   */
  const requeue = (state: AutosaveState, outcome: 'refused' | 'unknown'): AutosaveState => {
    if (state.inFlight === null) return state;
    const { edits } = state.inFlight;
    const uncertain = outcome === 'refused' ? state.uncertain : { ...state.uncertain, ...edits };
    return { ...state, pending: { ...edits, ...state.pending }, inFlight: null, uncertain };
  };

  const init = initialState;

  const matches = (state: AutosaveState, batchId: number) => state.inFlight !== null && state.inFlight.id === batchId;

  const restore = (saved: PersistedAutosave, current: UpstreamState): AutosaveState => {
    // The edits are re-applied over the base they were made against, then merged with the upstream as
    // it is now, exactly like a 412: edits nobody else touched are sent, the rest become conflicts.
    const conflicts = Array.isArray(saved.conflicts) ? saved.conflicts : [];
    const names = [...Object.keys(saved.edits), ...conflicts.map((c) => c.name)];
    const atBase: AutosaveState = {
      ...init(current),
      server: { ...current.values, ...saved.base },
      pending: { ...saved.edits },
      uncertain: { ...(saved.uncertain ?? {}) },
      conflicts,
      orphaned: { ...saved.orphaned },
      touched: names.length > 0,
    };
    const theirs = Object.fromEntries(names.map((n) => [n, current.values[n] ?? null]));
    const merged = reconcile(atBase, { ...current, values: theirs }, names, equal);
    // A refusal holds while its edit is still the one waiting; a merge that settled the field ends it.
    const refused = typeof saved.rejected === 'object' && saved.rejected !== null ? saved.rejected : {};
    const rejected = Object.fromEntries(
      Object.entries(refused).filter(([n, why]) => typeof why === 'string' && Object.hasOwn(merged.pending, n)),
    );
    return settle({ ...merged, rejected });
  };

  return {
    init,

    edit(state, name, value, now) {
      const conflict = state.conflicts.find((c) => c.name === name);
      if (conflict !== undefined) {
        // Typing into a conflicting field keeps the conflict open with the newest of mine.
        const conflicts = state.conflicts.map((c) => (c === conflict ? { ...c, mine: value } : c));
        return settle({ ...state, touched: true, conflicts });
      }
      const rejected = without(state.rejected, [name]);
      // Back to what the upstream holds: nothing to save, unless a write of another value for it is in
      // flight or may have gone through (then the upstream may not hold what we think).
      const unsure =
        Object.hasOwn(state.uncertain, name) || (state.inFlight !== null && Object.hasOwn(state.inFlight.edits, name));
      const reverted = !unsure && Object.hasOwn(state.server, name) && equal(name, value, state.server[name]);
      const pending = reverted ? without(state.pending, [name]) : { ...state.pending, [name]: value };
      return settle({
        ...state,
        pending,
        rejected,
        touched: true,
        burstStartedAt: state.burstStartedAt ?? now,
        lastEditAt: now,
      });
    },

    tick(state, now) {
      const settled = settle(state);
      if (settled.inFlight !== null || !settled.online) return { state: settled, send: null, wakeAt: null };
      if (settled.retryAt !== null && now < settled.retryAt) {
        return { state: settled, send: null, wakeAt: settled.retryAt };
      }
      const names = sendable(settled);
      if (names.length === 0) {
        return { state: settle({ ...settled, burstStartedAt: null, sendNow: false }), send: null, wakeAt: null };
      }
      const retrying = settled.retryAt !== null;
      // The quiet time is after typing: edits nobody is typing (brought back from the device) have none to wait for,
      // or waiting would start again at every tick.
      if (!settled.sendNow && !retrying && settled.lastEditAt !== null) {
        const lastEdit = settled.lastEditAt;
        const due = Math.min(lastEdit + debounceMs, (settled.burstStartedAt ?? lastEdit) + maxWaitMs);
        if (now < due) return { state: settled, send: null, wakeAt: due };
      }
      // Top-level answers first, then items in the order they were first edited.
      const targets = names.map((n) => targetOf(n) as WriteTarget);
      const first = targets.find((t) => t.kind === 'answers') ?? (targets[0] as WriteTarget);
      const key = targetKey(first);
      const batchNames = names.filter((n) => targetKey(targetOf(n) as WriteTarget) === key);
      const edits: Record<string, FormValue> = {};
      for (const name of batchNames) edits[name] = settled.pending[name] ?? null;
      const batch: WriteBatch = {
        id: settled.nextBatchId,
        target: first,
        edits,
        answersRevision: settled.answersRevision,
        etag: settled.etag,
      };
      const next: AutosaveState = {
        ...settled,
        pending: without(settled.pending, batchNames),
        inFlight: batch,
        nextBatchId: settled.nextBatchId + 1,
        retryAt: null,
        // While a retry is under way the status says "saving"; a new failure brings the error back.
        lastError: null,
        // The rest of this burst (other targets) follows as soon as this write is done.
        sendNow: names.length > batchNames.length,
        burstStartedAt: names.length > batchNames.length ? settled.burstStartedAt : null,
      };
      return { state: settle(next), send: batch, wakeAt: null };
    },

    onSuccess(state, batchId, result) {
      if (!matches(state, batchId)) return state;
      const batch = state.inFlight as WriteBatch;
      return settle({
        ...state,
        server: { ...state.server, ...batch.edits },
        uncertain: without(state.uncertain, Object.keys(batch.edits)),
        inFlight: null,
        answersRevision: result.answersRevision,
        etag: result.etag,
        attempt: 0,
        retryAt: null,
        lastError: null,
        touched: true,
      });
    },

    onConflict(state, batchId, current) {
      if (!matches(state, batchId)) return state;
      const batch = state.inFlight as WriteBatch;
      const requeued = requeue(state, 'refused');
      const merged = reconcile(requeued, current, Object.keys(batch.edits), equal);
      return settle({ ...merged, attempt: 0, retryAt: null, lastError: null });
    },

    onError(state, batchId, message, now) {
      if (!matches(state, batchId)) return state;
      const attempt = state.attempt + 1;
      const delay = retryDelays[Math.min(attempt, retryDelays.length) - 1] ?? DEFAULTS.debounceMs;
      // A 5xx or a timeout may come after the upstream saved the write.
      return settle({ ...requeue(state, 'unknown'), attempt, retryAt: now + delay, lastError: message });
    },

    onRejected(state, batchId, fieldErrors) {
      if (!matches(state, batchId)) return state;
      const batch = state.inFlight as WriteBatch;
      const named = Object.keys(fieldErrors).filter((n) => Object.hasOwn(batch.edits, n));
      // A refusal that names none of our fields still refuses the whole batch: hold all of it.
      const held = named.length > 0 ? named : Object.keys(batch.edits);
      const rejected: Record<string, string> = { ...state.rejected };
      for (const name of held) rejected[name] = fieldErrors[name] ?? 'This answer was not accepted';
      const requeued = requeue(state, 'refused');
      return settle({ ...requeued, rejected, sendNow: true, lastError: null, retryAt: null, attempt: 0 });
    },

    onItemGone(state, itemId) {
      const ofItem = (n: string) => {
        const t = targetOf(n);
        return t !== null && t.kind === 'item' && t.itemId === itemId;
      };
      const target = state.inFlight?.target;
      const inFlightThere = target !== undefined && target.kind === 'item' && target.itemId === itemId;
      const requeued = inFlightThere ? requeue(state, 'refused') : state;
      const gone = Object.keys(requeued.pending).filter(ofItem);
      const orphaned: Record<string, FormValue> = { ...requeued.orphaned };
      for (const name of gone) orphaned[name] = requeued.pending[name] ?? null;
      for (const c of requeued.conflicts) if (ofItem(c.name)) orphaned[c.name] = c.mine;
      return settle({
        ...requeued,
        pending: without(requeued.pending, gone),
        conflicts: requeued.conflicts.filter((c) => !ofItem(c.name)),
        orphaned,
        server: Object.fromEntries(Object.entries(requeued.server).filter(([n]) => !ofItem(n))),
        uncertain: Object.fromEntries(Object.entries(requeued.uncertain).filter(([n]) => !ofItem(n))),
      });
    },

    onOffline(state) {
      return settle({ ...requeue(state, 'unknown'), online: false });
    },

    onOnline(state) {
      // Whatever waited for the connection goes at once, and a failed attempt starts over.
      return settle({ ...state, online: true, sendNow: true, retryAt: null, lastError: null, attempt: 0 });
    },

    retry(state) {
      return settle({ ...state, retryAt: null, lastError: null, sendNow: true });
    },

    resolve(state, name, choice) {
      const conflict = state.conflicts.find((c) => c.name === name);
      if (conflict === undefined) return state;
      const value = choice === 'mine' ? conflict.mine : choice === 'theirs' ? conflict.theirs : choice.value;
      const conflicts = state.conflicts.filter((c) => c !== conflict);
      // The upstream holds theirs, so anything else has to be sent.
      const keep = !equal(name, value, conflict.theirs);
      return settle({
        ...state,
        conflicts,
        pending: keep ? { ...state.pending, [name]: value } : without(state.pending, [name]),
        sendNow: keep || state.sendNow,
      });
    },

    forgetItem(state, itemId) {
      const ofItem = (n: string) => {
        const t = targetOf(n);
        return t !== null && t.kind === 'item' && t.itemId === itemId;
      };
      return settle({
        ...state,
        pending: Object.fromEntries(Object.entries(state.pending).filter(([n]) => !ofItem(n))),
        conflicts: state.conflicts.filter((c) => !ofItem(c.name)),
        rejected: Object.fromEntries(Object.entries(state.rejected).filter(([n]) => !ofItem(n))),
        server: Object.fromEntries(Object.entries(state.server).filter(([n]) => !ofItem(n))),
        uncertain: Object.fromEntries(Object.entries(state.uncertain).filter(([n]) => !ofItem(n))),
      });
    },

    refresh(state, current) {
      // A write in flight was made against the old revision: its own reply (success or 412) settles it.
      if (state.inFlight !== null) {
        const inFlightNames = new Set(Object.keys(state.inFlight.edits));
        const values = Object.fromEntries(Object.entries(current.values).filter(([n]) => !inFlightNames.has(n)));
        const merged = reconcile(state, { ...current, values }, [], equal);
        return settle({ ...merged, answersRevision: state.answersRevision, etag: state.etag });
      }
      return settle(reconcile(state, current, [], equal));
    },

    acknowledgeTheirs(state) {
      return state.theirsApplied.length === 0 ? state : { ...state, theirsApplied: [] };
    },

    dismissOrphaned(state, names) {
      return { ...state, orphaned: names === undefined ? {} : without(state.orphaned, names) };
    },

    persist(state) {
      const inFlight = state.inFlight?.edits ?? {};
      const edits: Record<string, FormValue> = { ...inFlight, ...state.pending };
      const base: Record<string, FormValue> = {};
      for (const name of Object.keys(edits)) base[name] = state.server[name] ?? null;
      // The reply to a write in flight is lost with the page: it may or may not have been saved.
      const uncertain = { ...state.uncertain, ...inFlight };
      const { answersRevision, etag, orphaned } = state;
      const conflicts = [...state.conflicts];
      const rejected = { ...state.rejected };
      return { version: 1, answersRevision, etag, base, edits, uncertain, conflicts, orphaned: { ...orphaned }, rejected };
    },

    restoreInto(state, saved) {
      const restored = restore(saved, { values: state.server, answersRevision: state.answersRevision, etag: state.etag });
      const mine = new Set([...Object.keys(state.pending), ...Object.keys(state.inFlight?.edits ?? {}), ...state.conflicts.map((c) => c.name)]);
      const theirsOnly = <T>(record: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(record).filter(([n]) => !mine.has(n)));
      return settle({
        ...state,
        server: { ...state.server, ...theirsOnly(restored.server) },
        pending: { ...theirsOnly(restored.pending), ...state.pending },
        conflicts: [...state.conflicts, ...restored.conflicts.filter((c) => !mine.has(c.name))],
        theirsApplied: [...state.theirsApplied, ...restored.theirsApplied.filter((t) => !mine.has(t.name))],
        rejected: { ...theirsOnly(restored.rejected), ...state.rejected },
        orphaned: { ...restored.orphaned, ...state.orphaned },
        uncertain: { ...theirsOnly(restored.uncertain), ...state.uncertain },
        touched: state.touched || restored.touched,
      });
    },

    restore,

    unsavedNames(state) {
      return [
        ...new Set([
          ...Object.keys(state.inFlight?.edits ?? {}),
          ...Object.keys(state.pending),
          ...state.conflicts.map((c) => c.name),
        ]),
      ];
    },
  };
}
