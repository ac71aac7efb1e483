import type { FormValue } from './equality';
import type { FieldModel } from './model';

/**
 * What a field holds when the browser could not read what was typed as a value (`input.validity.badInput`:
 * a date that does not exist, or one typed in part). The input still shows the person's text but reports an
 * empty value; taken as empty, it would erase the saved answer. Held instead like any value that is not valid:
 * never sent, kept on the device, explained. It starts with NUL, which no answer holds (text with NUL is
 * refused by the form and the Portal alike), so it can never be mistaken for one.
 */
export const UNREADABLE_INPUT = '\u0000unreadable-input';

export const isUnreadableInput = (value: FormValue | undefined): boolean => value === UNREADABLE_INPUT;

export function unreadableMessage(field: FieldModel): string {
  return field.widget === 'date' ? 'Not a valid date: check the day, month and year.' : 'This could not be read as an answer: type it again.';
}

/** How a person reads it where a value is shown (a conflict, a notice). */
export function unreadableLabel(field: FieldModel | undefined): string {
  return field?.widget === 'date' ? '(not a valid date)' : '(not readable)';
}
