import { parseNumberInput } from './number-input';

/**
 * One value of the form, in either of its two forms: what an input holds (text as typed, booleans, the
 * chosen option values) or the answer value sent upstream (spec 2.10). Lists stay read-only here, and an
 * invalid input (e.g. "12abc" in a number field) is kept as the string it is.
 */
export type Scalar = string | number | boolean;
export type FormValue = Scalar | null | readonly Scalar[];
export type FormValues = Readonly<Record<string, FormValue>>;

/** Unanswered in any form: null, missing, blank text or an empty list (as lib/contract's isAnswered). */
export function isEmptyValue(value: FormValue | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function scalarsEqual(a: Scalar, b: Scalar): boolean {
  if (typeof a === typeof b) return a === b;
  // What one side typed and the other side saved: "1,234.50" and 1234.5 are the same answer.
  if (typeof a === 'number' && typeof b === 'string') return parseNumberInput(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return parseNumberInput(a) === b;
  return false;
}

/**
 * Deep, type-aware equality of two form values without knowing their field: every kind of "empty" is
 * equal (null, '', [], missing), lists compare item by item in order, and a number equals the text that
 * parses to it. Field-aware equality (which also ignores the order of chosen options) is values.sameAnswer.
 */
export function valuesEqual(a: FormValue | undefined, b: FormValue | undefined): boolean {
  const emptyA = isEmptyValue(a);
  const emptyB = isEmptyValue(b);
  if (emptyA || emptyB) return emptyA && emptyB;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const listA: readonly Scalar[] = a;
    const listB: readonly Scalar[] = b;
    return listA.every((item, i) => scalarsEqual(item, listB[i] as Scalar));
  }
  return scalarsEqual(a as Scalar, b as Scalar);
}
