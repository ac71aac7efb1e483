import 'server-only';

/** Who changed an answer, as history names it. `outside`: the Portal's value moved without a write of ours. */
export type ActorKind = 'staff' | 'reviewer' | 'client' | 'autofill' | 'outside';
export interface Actor {
  kind: ActorKind;
  /** A staff member's or reviewer's name; for `autofill`, the reviewer who accepted; null for the client and outside. */
  name: string | null;
}

export interface FieldValue {
  schema_key: string;
  field_key: string;
  /** The repeatable item the answer belongs to, or null at the top level. */
  item_id: string | null;
  value: unknown;
  /** For a write: the value it replaced, when the writer knows it (used when history has not seen the field yet). */
  previous?: unknown;
}

/**
 * What the recorder is told: a write of ours that the Portal acknowledged at `revision`, or values read from
 * the Portal at `revision` (a change found there is the `actor`'s: outside the app, unless the BFF itself just
 * caused it, as an accepted Autofill suggestion does).
 */
export type HistoryEvent =
  | { kind: 'write'; applicationId: string; revision: number; actor: Actor; answers: FieldValue[] }
  | { kind: 'observe'; applicationId: string; revision: number; actor: Actor; answers: FieldValue[] };

/** Values compare as JSON: answers are null, strings, numbers, booleans or arrays of them. */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
