import type { FormValue, FormValues } from './equality';

/**
 * Form libraries such as react-hook-form read dotted names as paths: `a.legal_name.legal_name.value`
 * becomes { a: { legal_name: { legal_name: { value } } } }. These two functions cross between that
 * nested shape and the flat records the rest of lib/forms works on, so a resolver is a few lines:
 * flatten, validateAll, and hand the flat errors to @hookform/resolvers' toNestErrors.
 *
 * Field names have exactly four segments (names.ts), so the walk stops at depth four and a leaf that is
 * a list (chosen options, file ids) is never mistaken for a level. A purely numeric segment may have
 * been turned into an array index by the library; arrays are walked by index for that reason.
 */

const FIELD_DEPTH = 4;
const SCOPES: ReadonlySet<string> = new Set(['a', 'i']);

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

const entriesOf = (level: unknown): Array<[string, unknown]> => {
  if (Array.isArray(level)) {
    return level.flatMap((v, i): Array<[string, unknown]> => (v === undefined ? [] : [[String(i), v]]));
  }
  if (typeof level === 'object' && level !== null) return Object.entries(level);
  return [];
};

const isFormValue = (v: unknown): v is FormValue =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'boolean' ||
  (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean'));

export function flattenValues(nested: unknown): Record<string, FormValue> {
  const flat: Record<string, FormValue> = {};
  const walk = (level: unknown, path: string[]) => {
    if (path.length === FIELD_DEPTH) {
      // Inputs the library has not filled yet read as undefined: an empty field.
      if (level === undefined) flat[path.join('.')] = null;
      else if (isFormValue(level)) flat[path.join('.')] = level;
      return;
    }
    for (const [key, value] of entriesOf(level)) walk(value, [...path, key]);
  };
  for (const [scope, value] of entriesOf(nested)) if (SCOPES.has(scope)) walk(value, [scope]);
  return flat;
}
