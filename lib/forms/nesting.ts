import type { FormValue, FormValues } from './equality';

/**
 * Form libraries such as react-hook-form read dotted names as paths: `a.legal_name.legal_name.value`
 * becomes { a: { legal_name: { legal_name: { value } } } }. nestValues turns the flat records the rest of
 * lib/forms works on into that nested shape (e.g. react-hook-form's default values). Field names have
 * exactly four segments (names.ts); anything else is no field and is left out.
 */

const FIELD_DEPTH = 4;

type Nested = { [key: string]: Nested | FormValue };

export function nestValues(flat: FormValues): Nested {
  const root: Nested = {};
  for (const [name, value] of Object.entries(flat)) {
    const parts = name.split('.');
    if (parts.length !== FIELD_DEPTH) continue;
    let at = root;
    for (const part of parts.slice(0, -1)) {
      const next = at[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) at[part] = {};
      at = at[part] as Nested;
    }
    at[parts[FIELD_DEPTH - 1] as string] = value;
  }
  return root;
}
