import { valuesEqual, type FormValue, type FormValues } from './equality';

/**
 * The three-way merge of DESIGN.md §4 for 412 reconciliation, field by field:
 *
 *   base   the server state the user's edits were made against,
 *   mine   the user's values now (base plus every unsaved edit),
 *   theirs the upstream now (the 412's `current`).
 *
 * Only I changed it → mine stays and is re-sent with the new revision. Only they changed it → theirs is
 * taken silently and listed. Both changed it to the same answer → nothing to do. Both changed it to
 * different answers → a conflict the person resolves; until then the field shows mine, because what
 * someone typed is never replaced without their say. A name missing on one side is empty there, so
 * each side must be a whole record (mine = base with the edits applied), never just the edits.
 */

export type ValueEquality = (name: string, a: FormValue | undefined, b: FormValue | undefined) => boolean;

export interface MergeInput {
  readonly base: FormValues;
  readonly mine: FormValues;
  readonly theirs: FormValues;
}

export interface Conflict {
  readonly name: string;
  readonly base: FormValue;
  readonly mine: FormValue;
  readonly theirs: FormValue;
}

export interface TheirChange {
  readonly name: string;
  readonly base: FormValue;
  readonly theirs: FormValue;
}

export interface MergeResult {
  /** The values to show: theirs where only they changed, mine everywhere else (conflicts included). */
  readonly merged: FormValues;
  /** Fields only I changed (and resolved conflicts I kept): to send with the new revision. */
  readonly resend: FormValues;
  /** Fields only they changed, already in `merged`: listed so the UI can say what moved. */
  readonly theirsApplied: readonly TheirChange[];
  /** Fields both changed to different answers, in name order. */
  readonly conflicts: readonly Conflict[];
}

export interface MergeOptions {
  /** Equality per field; values.equalityFor(model) makes "1,234.50" equal 1234.5. */
  readonly equal?: ValueEquality;
}

const defaultEqual: ValueEquality = (_name, a, b) => valuesEqual(a, b);
const own = (values: FormValues, name: string): FormValue | undefined =>
  Object.hasOwn(values, name) ? values[name] : undefined;

export function threeWayMerge(input: MergeInput, options: MergeOptions = {}): MergeResult {
  const equal = options.equal ?? defaultEqual;
  const { base, mine, theirs } = input;
  const names = new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)]);
  const merged: Record<string, FormValue> = {};
  const resend: Record<string, FormValue> = {};
  const theirsApplied: TheirChange[] = [];
  const conflicts: Conflict[] = [];
  for (const name of [...names].sort()) {
    const b = own(base, name);
    const m = own(mine, name);
    const t = own(theirs, name);
    const iChanged = !equal(name, m, b);
    const theyChanged = !equal(name, t, b);
    if (!theyChanged) {
      if (iChanged) {
        merged[name] = m ?? null;
        resend[name] = m ?? null;
      } else {
        // All three are the same answer: show it as the person typed it (their formatting), if they did.
        merged[name] = m ?? t ?? b ?? null;
      }
    } else if (!iChanged) {
      merged[name] = t ?? null;
      theirsApplied.push({ name, base: b ?? null, theirs: t ?? null });
    } else {
      merged[name] = m ?? null;
      if (!equal(name, m, t)) conflicts.push({ name, base: b ?? null, mine: m ?? null, theirs: t ?? null });
    }
  }
  return { merged, resend, theirsApplied, conflicts };
}

/** How the person settles a conflict (the autosave machine applies it): mine, theirs, or a new value. */
export type ConflictChoice = 'mine' | 'theirs' | { readonly value: FormValue };
