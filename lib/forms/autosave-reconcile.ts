import type { FormValue } from './equality';
import { threeWayMerge, type Conflict, type ValueEquality } from './merge';
import { without, type AutosaveState, type UpstreamState } from './autosave-state';

/**
 * Folding what the upstream holds now (a 412's `current`, a fresh read, or the upstream after a reload)
 * into the autosave state, by the three-way merge of DESIGN.md §4.
 */

/**
 * An open conflict against a newer upstream value. It stays the person's to settle, unless the upstream
 * made it moot: now holding mine (nothing to decide) or back at the base (only mine changed: re-send).
 */
interface Revisited {
  readonly conflict?: Conflict;
  readonly resend?: FormValue;
}

function revisit(c: Conflict, theirs: FormValue, equal: ValueEquality): Revisited {
  if (equal(c.name, c.mine, theirs)) return {};
  if (equal(c.name, theirs, c.base)) return equal(c.name, c.mine, c.base) ? {} : { resend: c.mine };
  return { conflict: { ...c, theirs } };
}

/**
 * Merges the upstream's `current` into the state over the names it covers (plus `extra`, the names of
 * a failed batch). Names outside that scope are untouched: a 412 on one item says nothing about others.
 */
export function reconcile(
  state: AutosaveState,
  current: UpstreamState,
  extra: readonly string[],
  equal: ValueEquality,
): AutosaveState {
  const conflicted = new Set(state.conflicts.map((c) => c.name));
  const scope = new Set([...Object.keys(current.values), ...extra].filter((n) => !conflicted.has(n)));
  const base: Record<string, FormValue> = {};
  const mine: Record<string, FormValue> = {};
  const theirs: Record<string, FormValue> = {};
  for (const name of scope) {
    const t = current.values[name] ?? null;
    // A write that may have gone through did go through if the upstream now shows its value.
    const maybe = Object.hasOwn(state.uncertain, name) && equal(name, state.uncertain[name], t);
    const b = maybe ? (state.uncertain[name] ?? null) : (state.server[name] ?? null);
    base[name] = b;
    mine[name] = Object.hasOwn(state.pending, name) ? (state.pending[name] ?? null) : b;
    theirs[name] = t;
  }
  const result = threeWayMerge({ base, mine, theirs }, { equal });
  const applied = new Set(result.theirsApplied.map((t) => t.name));
  const stillConflicted: Conflict[] = [];
  const resend: Record<string, FormValue> = { ...result.resend };
  for (const c of state.conflicts) {
    if (!Object.hasOwn(current.values, c.name)) {
      stillConflicted.push(c);
      continue;
    }
    const next = revisit(c, current.values[c.name] ?? null, equal);
    if (next.conflict !== undefined) stillConflicted.push(next.conflict);
    if (next.resend !== undefined) resend[c.name] = next.resend;
  }
  // A refusal stands while the refused value is still what would be sent.
  const rejected = Object.fromEntries(
    Object.entries(state.rejected).filter(([n]) => !scope.has(n) || Object.hasOwn(result.resend, n)),
  );
  return {
    ...state,
    answersRevision: current.answersRevision,
    etag: current.etag,
    // Every name the upstream sent, conflicting ones too: `server` must stay what the upstream holds,
    // or a later merge (or a reload) would take an old value for the base and misread the edits.
    server: { ...state.server, ...current.values, ...theirs },
    pending: { ...without(state.pending, scope), ...resend },
    conflicts: [...stillConflicted, ...result.conflicts],
    // Notices the UI has not acknowledged yet stay, unless a newer change of the same field replaces them.
    theirsApplied: [...state.theirsApplied.filter((t) => !applied.has(t.name)), ...result.theirsApplied],
    rejected,
    uncertain: without(state.uncertain, scope),
    sendNow: Object.keys(resend).length > 0 || state.sendNow,
  };
}
