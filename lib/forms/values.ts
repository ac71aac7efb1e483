import type { AnswerItem } from '../portal/answers';
import { isEmptyValue, valuesEqual, type FormValue, type FormValues, type Scalar } from './equality';
import { formItemOf, type FormItem, type ItemViewLike } from './items';
import { fieldForName, fieldOf, type FieldModel, type FormModel } from './model';
import { answerName, itemName, parseName } from './names';
import type { ValueEquality } from './merge';
import { formatNumberInput, parseNumberInput } from './number-input';
import { isNumericWidget } from './widgets';

/**
 * Answers ↔ form values. The form keeps what inputs hold (text as typed, so "1,234.5" and a half-typed
 * "12." survive), and converts to answer values by value_schema only when it validates, compares or
 * saves. An input that does not convert (e.g. "12abc" in a number field) is kept as its text: the
 * validator then says what is wrong, and nothing typed is lost.
 */

/** What an empty input of a widget holds: '' for inputs, [] for lists of boxes or files, null or false for yes/no. */
export function emptyInputValue(field: FieldModel): FormValue {
  switch (field.widget) {
    case 'yes-no':
      return null;
    case 'checkbox':
      return false;
    case 'checkbox-group':
    case 'file':
      return [];
    default:
      return '';
  }
}

const asStrings = (list: readonly Scalar[]): string[] => list.map(String);

/** An answer value as the field's input holds it. */
export function toInputValue(field: FieldModel, value: FormValue | undefined): FormValue {
  if (value === null || value === undefined) return emptyInputValue(field);
  const { widget } = field;
  if (isNumericWidget(widget)) return typeof value === 'number' ? formatNumberInput(value, widget) : value;
  switch (widget) {
    case 'yes-no':
    case 'file':
      return value;
    case 'checkbox':
      return value === true;
    case 'radio':
    case 'select':
      return Array.isArray(value) ? value : String(value);
    case 'checkbox-group':
      return Array.isArray(value) ? asStrings(value) : [String(value)];
    case 'list':
      return Array.isArray(value) ? asStrings(value).join('\n') : String(value);
    default:
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
}

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'no', 'off', '0']);

function toBoolean(input: Scalar): Scalar | null {
  if (typeof input === 'boolean') return input;
  if (typeof input === 'string') {
    const word = input.trim().toLowerCase();
    if (word === '') return null;
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return input;
}

function toNumber(input: Scalar): Scalar | null {
  if (typeof input !== 'string') return input;
  if (input.trim() === '') return null;
  return parseNumberInput(input) ?? input;
}

/** An option's answer by its DOM value; anything that is not an option is kept as it came. */
function toChoice(field: FieldModel, input: Scalar): Scalar {
  const text = String(input);
  return field.options?.find((o) => o.value === text)?.answer ?? input;
}

/** Chosen options in the options' order, each once: the order of clicks is not part of the answer. */
function toChoices(field: FieldModel, input: readonly Scalar[]): FormValue {
  const rank = new Map((field.options ?? []).map((o, i) => [o.value, i]));
  const seen = new Set<string>();
  const chosen: Array<{ value: Scalar; rank: number; at: number }> = [];
  input.forEach((item, at) => {
    const key = String(item);
    if (seen.has(key) || (typeof item === 'string' && item.trim() === '')) return;
    seen.add(key);
    chosen.push({ value: toChoice(field, item), rank: rank.get(key) ?? Number.MAX_SAFE_INTEGER, at });
  });
  chosen.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return chosen.length === 0 ? null : chosen.map((c) => c.value);
}

function toListItems(field: FieldModel, input: FormValue): FormValue {
  const items = typeof input === 'string' ? input.split(/\r?\n/) : Array.isArray(input) ? input : [input as Scalar];
  const kept = items.flatMap((item): Scalar[] => {
    if (typeof item === 'string' && item.trim() === '') return [];
    const text = typeof item === 'string' ? item.trim() : item;
    const scalar = field.facts.itemScalar;
    if (scalar === 'integer' || scalar === 'number') return [toNumber(text) ?? text];
    if (scalar === 'boolean') return [toBoolean(text) ?? text];
    return [text];
  });
  return kept.length === 0 ? null : kept;
}

/** An input as the answer value to validate and send (spec 2.10); null when it is empty. */
export function toAnswerValue(field: FieldModel, input: FormValue | undefined): FormValue {
  if (input === undefined || input === null) return null;
  const { widget } = field;
  if (widget === 'checkbox-group') return toChoices(field, Array.isArray(input) ? input : [input as Scalar]);
  if (widget === 'list') return toListItems(field, input);
  if (widget === 'file') return isEmptyValue(input) ? null : input;
  // A list in a single-value field is nothing we can convert; the validator will say so.
  if (Array.isArray(input)) return input.length === 0 ? null : input;
  const scalar = input as Scalar;
  if (isNumericWidget(widget)) return toNumber(scalar);
  switch (widget) {
    case 'yes-no':
      return toBoolean(scalar);
    case 'checkbox': {
      const value = toBoolean(scalar);
      // Unticking a declaration takes the answer back; it does not answer "no" (enum [true] refuses false).
      return value === false && !(field.facts.choices ?? []).includes(false) ? null : value;
    }
    case 'radio':
    case 'select':
      return typeof scalar === 'string' && scalar.trim() === '' ? null : toChoice(field, scalar);
    case 'email':
    case 'url':
    case 'tel':
    case 'date': {
      // The browser trims these itself; a stray space would only fail the format.
      if (typeof scalar !== 'string') return scalar;
      const text = scalar.trim();
      return text === '' ? null : text;
    }
    default:
      // Free text is sent as typed (spaces included: it may be mid-word), but blank text is no answer.
      return typeof scalar === 'string' && scalar.trim() === '' ? null : scalar;
  }
}

/** Two values of one field are the same answer (e.g. "1,234.50" and 1234.5; options in any order). */
export function sameAnswer(field: FieldModel, a: FormValue | undefined, b: FormValue | undefined): boolean {
  return valuesEqual(toAnswerValue(field, a), toAnswerValue(field, b));
}

/** Equality by name for the three-way merge: field-aware where the model knows the name. */
export function equalityFor(model: FormModel): ValueEquality {
  return (name, a, b) => {
    const field = fieldForName(model, name);
    return field === undefined ? valuesEqual(a, b) : sameAnswer(field, a, b);
  };
}

type AnswerLike = Pick<AnswerItem, 'block_key' | 'schema_key' | 'field_key' | 'value'>;
export interface ItemWithAnswers extends ItemViewLike {
  readonly answers: readonly Pick<AnswerItem, 'schema_key' | 'field_key' | 'value'>[];
}

/**
 * Top-level answers (pages of spec 2.10) as form values: every top-level field of the model gets a
 * value (empty when unanswered), and an answer the model does not know is kept under its own name.
 */
export function valuesFromAnswers(model: FormModel, answers: readonly AnswerLike[]): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of model.topFields) values[field.name as string] = emptyInputValue(field);
  for (const answer of answers) {
    const name = answerName(answer.block_key, answer.schema_key, answer.field_key);
    const field = model.topFieldByName.get(name);
    values[name] = field === undefined ? answer.value : toInputValue(field, answer.value);
  }
  return values;
}

/** Answers of repeatable items as form values, every field of each item's group included. */
export function valuesFromItems(model: FormModel, items: readonly ItemWithAnswers[]): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const item of items) {
    const group = model.groupByKey.get(item.block_key);
    for (const field of group?.fields ?? []) {
      values[itemName(item.item_id, field.schemaKey, field.fieldKey)] = emptyInputValue(field);
    }
    for (const answer of item.answers) {
      const field = fieldOf(model, answer.schema_key, answer.field_key);
      const name = itemName(item.item_id, answer.schema_key, answer.field_key);
      values[name] = field === undefined ? answer.value : toInputValue(field, answer.value);
    }
  }
  return values;
}

export interface FormState {
  readonly values: FormValues;
  readonly items: readonly FormItem[];
}

/** Everything the form starts from: top-level answers and every repeatable item (all pages read). */
export function formStateFrom(
  model: FormModel,
  answers: readonly AnswerLike[],
  items: readonly ItemWithAnswers[] = [],
): FormState {
  return {
    values: { ...valuesFromAnswers(model, answers), ...valuesFromItems(model, items) },
    items: items.map(formItemOf),
  };
}

export interface AnswerWriteOut {
  readonly block_key: string;
  readonly schema_key: string;
  readonly field_key: string;
  readonly value: FormValue;
}
export interface ItemWriteOut {
  readonly schema_key: string;
  readonly field_key: string;
  readonly value: FormValue;
}

export interface Writes {
  /** Body `answers` of a PATCH to answers/. */
  readonly answers: readonly AnswerWriteOut[];
  /** Body `answers` of a PATCH per repeatable item, by item id. */
  readonly items: ReadonlyMap<string, readonly ItemWriteOut[]>;
  /** Names that are not answers the form can write (files, read-only or unknown fields). */
  readonly skipped: readonly string[];
}

/** Form edits as the write bodies of DESIGN.md §5, values converted by value_schema. */
export function writesFor(model: FormModel, edits: FormValues): Writes {
  const answers: AnswerWriteOut[] = [];
  const items = new Map<string, ItemWriteOut[]>();
  const skipped: string[] = [];
  for (const [name, input] of Object.entries(edits)) {
    const field = fieldForName(model, name);
    const parsed = parseName(name);
    // Files are attached through uploads, never written as values.
    if (field === undefined || parsed === null || field.readOnly || field.widget === 'file') {
      skipped.push(name);
      continue;
    }
    const value = toAnswerValue(field, input);
    if (parsed.scope === 'answer') {
      answers.push({ block_key: field.blockKey, schema_key: field.schemaKey, field_key: field.fieldKey, value });
    } else if (parsed.scope === 'item') {
      const list = items.get(parsed.itemId) ?? [];
      list.push({ schema_key: field.schemaKey, field_key: field.fieldKey, value });
      items.set(parsed.itemId, list);
    }
  }
  return { answers, items, skipped };
}
