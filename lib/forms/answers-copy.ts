import type { FileView } from '../bff/files';
import type { AnswerItem } from '../portal/answers';
import { groupFiles } from './file-values';
import { indexItems, type ItemIndex } from './items';
import { formModel, type FieldModel, type FormContract, type GroupModel, type QuestionModel } from './model';
import { answerName, itemName } from './names';
import { formStateFrom, toAnswerValue, type ItemWithAnswers } from './values';
import { computeVisibility, isQuestionVisible, type VisibilityState } from './visibility';
import type { FormValue, FormValues } from './equality';
import { formatNumberInput } from './number-input';

/**
 * A copy of an application's answers for a person to read (the client's confirmation after submitting):
 * the visible questions that have an answer, section by section in the contract's order, repeatable items
 * nested as the form shows them, choices by their labels and files by their names.
 */

export interface CopyRow {
  readonly label: string;
  readonly value: string;
  /** A required field of a visible question left unanswered (only with `markMissing`; value is then ''). */
  readonly missing?: boolean;
}

/** A section, or one item of a repeatable group ("Owners 2"): its answers, then its groups. */
export interface CopyBlock {
  readonly label: string;
  readonly rows: readonly CopyRow[];
  readonly groups: readonly CopyGroup[];
}
export type CopyItem = CopyBlock;
export type CopySection = CopyBlock;

export interface CopyGroup {
  readonly label: string;
  readonly items: readonly CopyItem[];
}

export interface AnswersSource {
  readonly contract: FormContract;
  readonly answers: readonly Pick<AnswerItem, 'block_key' | 'schema_key' | 'field_key' | 'value'>[];
  readonly items: readonly ItemWithAnswers[];
  readonly files: readonly FileView[];
  /** Lists required fields left unanswered too, marked (the funder's PDF); the client's copy leaves them out. */
  readonly markMissing?: boolean;
  /** How a calendar date (YYYY-MM-DD) is written for people; as stored when not given. */
  readonly calendarDate?: (date: string) => string;
}

type Scalar = string | number | boolean;

/** A value as a person reads it: option labels, Yes / No, lists joined; null when unanswered. */
export function readableValue(field: FieldModel, value: FormValue | undefined): string | null {
  const answer = toAnswerValue(field, value);
  if (answer === null || answer === undefined || (Array.isArray(answer) && answer.length === 0)) return null;
  const one = (v: Scalar): string => {
    const option = field.options?.find((o) => o.value === String(v));
    if (option) return option.label;
    if (typeof v === 'boolean') return v ? 'Yes' : 'No';
    return String(v);
  };
  if (typeof answer === 'string' && answer.trim() === '') return null;
  return Array.isArray(answer) ? (answer as Scalar[]).map(one).join(field.widget === 'list' ? '\n' : ', ') : one(answer as Scalar);
}

/**
 * A recorded value (history, the timeline) as a person reads it: through the field's readableValue when the
 * contract still has the field, else lists joined and Yes/No; "(empty)" for no answer.
 */
export function recordedValueText(field: FieldModel | undefined, value: unknown): string {
  if (field) return readableValue(field, value as FormValue) ?? '(empty)';
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '(empty)';
  const one = (v: unknown) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

/**
 * An answer as a copy for people shows it: readableValue, with dates written by the caller's one date format
 * (its month spelled out, so 04/01 is never read the wrong way round) and amounts grouped ("250,000.50").
 * The contract names no currency, so none is invented.
 */
function copyValue(field: FieldModel, value: FormValue | undefined, calendarDate: ((date: string) => string) | undefined): string | null {
  const answer = toAnswerValue(field, value);
  if (calendarDate && field.widget === 'date' && typeof answer === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(answer)) return calendarDate(answer);
  if (field.widget === 'currency' && typeof answer === 'number') return formatNumberInput(answer, 'currency');
  return readableValue(field, value);
}

interface Ctx {
  values: FormValues;
  visibility: VisibilityState;
  items: ItemIndex;
  files: Map<string, FileView[]>;
  markMissing: boolean;
  calendarDate: ((date: string) => string) | undefined;
}

function rowsOf(ctx: Ctx, questions: readonly QuestionModel[], itemId: string | null): CopyRow[] {
  const rows: CopyRow[] = [];
  for (const question of questions) {
    if (!isQuestionVisible(ctx.visibility, question.schemaKey, itemId)) continue;
    for (const field of question.fields) {
      const name = itemId === null ? answerName(question.blockKey, question.schemaKey, field.fieldKey) : itemName(itemId, question.schemaKey, field.fieldKey);
      const value = field.widget === 'file' ? (ctx.files.get(name) ?? []).map((f) => f.filename).join(', ') || null : copyValue(field, ctx.values[name], ctx.calendarDate);
      const label = question.fields.length > 1 ? `${question.label} – ${field.label}` : question.label;
      if (value !== null) rows.push({ label, value });
      else if (ctx.markMissing && field.required) rows.push({ label, value: '', missing: true });
    }
  }
  return rows;
}

function groupOf(ctx: Ctx, group: GroupModel, parentItemId: string | null): CopyGroup | null {
  const items = ctx.items.childrenOf(group.blockKey, parentItemId).map((item, i) => ({
    label: `${group.label} ${i + 1}`,
    rows: rowsOf(ctx, group.questions, item.itemId),
    groups: group.children.map((child) => groupOf(ctx, child, item.itemId)).filter((g): g is CopyGroup => g !== null),
  }));
  return items.length === 0 ? null : { label: group.label, items };
}

export function answersCopy(source: AnswersSource): CopySection[] {
  const model = formModel(source.contract);
  const state = formStateFrom(model, source.answers, source.items);
  const items = indexItems(state.items);
  const ctx: Ctx = { values: state.values, visibility: computeVisibility(model, state.values, items), items, files: groupFiles(source.files), markMissing: source.markMissing ?? false, calendarDate: source.calendarDate };
  return model.sections
    .map((section) => ({
      label: section.label,
      rows: rowsOf(ctx, section.entries.flatMap((e) => (e.type === 'question' ? [e.question] : [])), null),
      groups: section.groups.map((g) => groupOf(ctx, g, null)).filter((g): g is CopyGroup => g !== null),
    }))
    .filter((s) => s.rows.length > 0 || s.groups.length > 0);
}
