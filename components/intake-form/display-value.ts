import { isUnreadableInput, toAnswerValue, unreadableLabel, type FieldModel, type FormValue } from '@/lib/forms';

/** A value as a person reads it in a conflict or notice: option labels, Yes/No, lists joined. */
export function displayValue(field: FieldModel | undefined, value: FormValue | undefined): string {
  if (isUnreadableInput(value)) return unreadableLabel(field);
  const answer = field ? toAnswerValue(field, value) : (value ?? null);
  if (answer === null || answer === undefined || (Array.isArray(answer) && answer.length === 0)) return '(empty)';
  const one = (v: string | number | boolean): string => {
    const option = field?.options?.find((o) => o.value === String(v));
    if (option) return option.label;
    if (typeof v === 'boolean') return v ? 'Yes' : 'No';
    return String(v);
  };
  return Array.isArray(answer) ? answer.map(one).join(', ') : one(answer as string | number | boolean);
}
