import { isUnreadableInput, toInputValue, UNREADABLE_INPUT, type FieldModel, type FormValue } from '@/lib/forms';

/**
 * What react-hook-form holds for a field (the DOM's view) ↔ the form values lib/forms works with. They
 * differ only where the DOM has no way to say it: a yes/no pair holds 'true'/'false' strings, and a
 * group of one checkbox reads as a single box.
 */

/** A form value as react-hook-form should hold it for the field's inputs. */
export function toDomValue(field: FieldModel, value: FormValue | undefined): unknown {
  // What the browser could not read cannot be put back: the input starts empty, and the field says why.
  if (isUnreadableInput(value)) return '';
  const input = toInputValue(field, value);
  if (field.widget === 'yes-no') return input === true ? 'true' : input === false ? 'false' : null;
  if (field.widget === 'checkbox-group') return Array.isArray(input) ? input.map(String) : [];
  return input;
}

/** What react-hook-form read from the DOM, as a form value. */
export function fromDomValue(field: FieldModel, raw: unknown): FormValue {
  if (raw === undefined || raw === null) return field.widget === 'checkbox-group' ? [] : field.widget === 'checkbox' ? false : field.widget === 'yes-no' ? null : '';
  if (field.widget === 'checkbox-group') {
    if (Array.isArray(raw)) return raw.map(String);
    // One box with a name reads as that box alone: its value when ticked, false when not.
    return typeof raw === 'string' ? [raw] : [];
  }
  if (field.widget === 'checkbox') return raw === true || raw === 'true' || raw === 'on';
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (Array.isArray(raw)) return raw.map(String);
  return String(raw);
}

/**
 * What the person typed, as a form value: the input's own reading when it has one. An input that holds text the
 * browser cannot read as its type (a date that does not exist) reports an empty value, which is not what was typed.
 */
export function fromDomInput(field: FieldModel, raw: unknown, input: Element | null | undefined): FormValue {
  // Only a date input can hold what it cannot read (the others are text): no DOM read on other keystrokes.
  if (field.widget === 'date' && (input as HTMLInputElement | null | undefined)?.validity?.badInput === true) return UNREADABLE_INPUT;
  return fromDomValue(field, raw);
}

/** The DOM id of a field's (first) input: links from the missing list and conflict notices focus it. */
export const inputIdOf = (name: string): string => `f-${name}`;
