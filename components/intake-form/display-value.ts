import { isUnreadableInput, readableValue, unreadableLabel, type FieldModel, type FormValue } from '@/lib/forms';

/** A value as a person reads it in a conflict or notice: option labels, Yes/No, lists joined. */
export function displayValue(field: FieldModel | undefined, value: FormValue | undefined): string {
  if (isUnreadableInput(value)) return unreadableLabel(field);
  if (field) return readableValue(field, value) ?? '(empty)';
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return '(empty)';
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}
