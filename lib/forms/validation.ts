import { isAnswered } from '../contract';
import { MESSAGES } from '../contract/value-messages';
import type { FormValue, FormValues } from './equality';
import { fieldForName, type FieldModel, type FormModel, type GroupModel } from './model';
import { groupName, itemName, questionInstanceKey } from './names';
import { oncePerObject } from './once-per-object';
import type { ItemIndex } from './items';
import { isInexactNumberInput } from './number-input';
import { toAnswerValue } from './values';
import type { VisibilityState } from './visibility';
import { isUnreadableInput, unreadableMessage } from './unreadable-input';
import { isNumericWidget } from './widgets';

/**
 * Form validation (DESIGN.md §4): value_schema through lib/contract's compiled validators (which include
 * the spec's limits of §8), required only while visible, and each group's min_items / max_items per
 * parent. Messages speak to the person filling in the form; the upstream stays the final authority.
 *
 * Cheap by construction: validators are compiled with the model, a field check is a map lookup, a
 * conversion and one compiled check, and the validator itself is built once per model.
 */

export type FormErrors = Record<string, string>;

export interface FormValidator {
  /** One field, e.g. on each keystroke: the first message, or null when it is fine (or hidden). */
  validateField(name: string, value: FormValue | undefined, visibleNow: boolean): string | null;
  /** Every visible field, item and group, e.g. before submit: messages by name (names.ts, incl. group names). */
  validateAll(values: FormValues, visibility: VisibilityState): FormErrors;
}

export function requiredMessage(field: FieldModel): string {
  switch (field.widget) {
    case 'radio':
    case 'select':
      return 'Choose an option';
    case 'checkbox-group':
      return 'Choose at least one option';
    case 'yes-no':
      return 'Choose yes or no';
    case 'checkbox':
      return 'Tick the box to confirm';
    case 'file':
      return field.maxFiles === 1 ? 'Upload a file' : 'Upload at least one file';
    default:
      return 'This field is required';
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const groupMessages = {
  minItems: (n: number): string => `Add at least ${plural(n, 'item', 'items')}`,
  maxItems: (n: number): string => `Remove items: at most ${plural(n, 'item is', 'items are')} allowed`,
};

/**
 * A number the form kept as its text because a double would round it (number-input.ts): said as such,
 * rather than "Must be a number". A numeric widget never takes strings (widgets.ts), nor does a list of numbers.
 */
function inexactNumberMessage(field: FieldModel, value: FormValue): string | null {
  if (isNumericWidget(field.widget)) {
    return typeof value === 'string' && isInexactNumberInput(value) ? MESSAGES.inexactNumber : null;
  }
  const numbers = field.facts.itemScalar === 'integer' || field.facts.itemScalar === 'number';
  if (field.widget !== 'list' || !numbers || !Array.isArray(value)) return null;
  const at = value.findIndex((item) => typeof item === 'string' && isInexactNumberInput(item));
  return at < 0 ? null : MESSAGES.item(at, MESSAGES.inexactNumber);
}

/** The first problem with a field's value, visibility aside; null when there is none. */
export function checkField(field: FieldModel, input: FormValue | undefined): string | null {
  // A field the person cannot change is the upstream's business; flagging it would leave them stuck.
  if (field.readOnly && field.widget !== 'file') return null;
  if (isUnreadableInput(input)) return unreadableMessage(field);
  const value = toAnswerValue(field, input);
  if (!isAnswered(value)) return field.required ? requiredMessage(field) : null;
  const inexact = inexactNumberMessage(field, value);
  if (inexact !== null) return inexact;
  const issues = field.validate(value);
  return issues.length === 0 ? null : (issues[0]?.message ?? null);
}

/** min_items / max_items of one group under one parent (null: the top level). */
export function checkGroupCount(group: GroupModel, items: ItemIndex, parentItemId: string | null): string | null {
  const count = items.childrenOf(group.blockKey, parentItemId).length;
  if (group.minItems !== null && count < group.minItems) return groupMessages.minItems(group.minItems);
  if (group.maxItems !== null && count > group.maxItems) return groupMessages.maxItems(group.maxItems);
  return null;
}

/** The parents a group's items hang under: the top level, or every item of its parent group. */
export function parentsOf(group: GroupModel, items: ItemIndex): ReadonlyArray<string | null> {
  if (group.parentBlockKey === null) return [null];
  return items.items.filter((i) => i.blockKey === group.parentBlockKey).map((i) => i.itemId);
}

function compile(model: FormModel): FormValidator {
  return {
    validateField(name, value, visibleNow) {
      if (!visibleNow) return null;
      const field = fieldForName(model, name);
      return field === undefined ? null : checkField(field, value);
    },
    validateAll(values, visibility) {
      const errors: FormErrors = {};
      const { hidden, items } = visibility;
      for (const field of model.topFields) {
        if (hidden.has(questionInstanceKey(null, field.schemaKey))) continue;
        const name = field.name as string;
        const message = checkField(field, values[name]);
        if (message !== null) errors[name] = message;
      }
      for (const item of items.items) {
        const group = model.groupByKey.get(item.blockKey);
        if (group === undefined) continue;
        for (const field of group.fields) {
          if (hidden.has(questionInstanceKey(item.itemId, field.schemaKey))) continue;
          const name = itemName(item.itemId, field.schemaKey, field.fieldKey);
          const message = checkField(field, values[name]);
          if (message !== null) errors[name] = message;
        }
      }
      for (const group of model.groups) {
        for (const parent of parentsOf(group, items)) {
          const message = checkGroupCount(group, items, parent);
          if (message !== null) errors[groupName(group.blockKey, parent)] = message;
        }
      }
      return errors;
    },
  };
}

/** The validator of a form model, built once per model. */
export const formValidator: (model: FormModel) => FormValidator = oncePerObject(compile);

/**
 * Whether a value may be autosaved: it converts and passes value_schema. Required-ness does not count
 * (clearing a field is a change worth saving); hidden questions still save, as the upstream accepts them.
 */
export function sendableCheck(model: FormModel): (name: string, value: FormValue) => boolean {
  return (name, value) => {
    const field = fieldForName(model, name);
    if (field === undefined || field.readOnly || field.widget === 'file' || isUnreadableInput(value)) return false;
    const answer = toAnswerValue(field, value);
    return !isAnswered(answer) || field.validate(answer).length === 0;
  };
}
