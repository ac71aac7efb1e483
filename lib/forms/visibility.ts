import type { AnswerLookup } from '../contract';
import type { AnswerValue } from '../portal/answers';
import type { FormValue, FormValues } from './equality';
import { indexItems, type FormItem, type ItemIndex } from './items';
import { fieldForName, type FieldModel, type FormModel, type QuestionModel } from './model';
import { fieldKeyOf, itemName, parseName, questionInstanceKey } from './names';
import { oncePerObject } from './once-per-object';
import { toAnswerValue } from './values';

/**
 * Live visibility over the form's values (DESIGN.md §5: a hidden question is not required and its
 * answers are not submitted). A condition is looked up as the sandbox's lookupFor does it
 * (server/sandbox/domain/answers.ts): a field of a repeatable group is read from the item being checked
 * or the nearest ancestor item of that group, a top-level field from the top level, and anything else
 * reads as unanswered. Values are converted by value_schema first, so "5" typed in a number field equals 5.
 */

/** One question, at the top level (itemId null) or in one item. */
export interface QuestionInstance {
  readonly schemaKey: string;
  readonly itemId: string | null;
}

export interface VisibilityState {
  readonly model: FormModel;
  readonly items: ItemIndex;
  /** questionInstanceKey(itemId, schemaKey) of every question hidden now. */
  readonly hidden: ReadonlySet<string>;
}

export function isQuestionVisible(state: VisibilityState, schemaKey: string, itemId: string | null): boolean {
  return !state.hidden.has(questionInstanceKey(itemId, schemaKey));
}

/** Whether a field name's question is visible now; names the model does not know count as visible. */
export function isNameVisible(state: VisibilityState, name: string): boolean {
  const field = fieldForName(state.model, name);
  if (field === undefined) return true;
  const parsed = parseName(name);
  const itemId = parsed !== null && parsed.scope === 'item' ? parsed.itemId : null;
  return !state.hidden.has(questionInstanceKey(itemId, field.schemaKey));
}

function lookupIn(model: FormModel, items: ItemIndex, values: FormValues, itemId: string | null): AnswerLookup {
  const read = (field: FieldModel, name: string): AnswerValue | undefined => {
    const input: FormValue | undefined = values[name];
    // The contract's checks read answer values; converted lists of one kind are answer values.
    return toAnswerValue(field, input) as AnswerValue;
  };
  return (schemaKey, fieldKey) => {
    const field = model.fieldById.get(fieldKeyOf(schemaKey, fieldKey));
    if (field === undefined) return undefined;
    if (field.groupKey === null) return read(field, field.name as string);
    for (const item of itemId === null ? [] : items.ancestry(itemId)) {
      if (item.blockKey === field.groupKey) return read(field, itemName(item.itemId, schemaKey, fieldKey));
    }
    return undefined;
  };
}

function evaluate(
  state: Pick<VisibilityState, 'model' | 'items'>,
  values: FormValues,
  question: QuestionModel,
  itemId: string | null,
): boolean {
  return question.isVisible(lookupIn(state.model, state.items, values, itemId));
}

/** Every instance of a conditional question: once at the top level, or once per item of its group. */
function instancesOf(question: QuestionModel, items: ItemIndex): QuestionInstance[] {
  if (question.groupKey === null) return [{ schemaKey: question.schemaKey, itemId: null }];
  return items.items
    .filter((item) => item.blockKey === question.groupKey)
    .map((item) => ({ schemaKey: question.schemaKey, itemId: item.itemId }));
}

/** Visibility of every question now. Recompute when items are added or removed; for edits, updateVisibility. */
export function computeVisibility(
  model: FormModel,
  values: FormValues,
  items: readonly FormItem[] | ItemIndex = [],
): VisibilityState {
  const index = Array.isArray(items) ? indexItems(items) : (items as ItemIndex);
  const base = { model, items: index };
  const hidden = new Set<string>();
  for (const question of model.conditionalQuestions) {
    for (const at of instancesOf(question, index)) {
      if (!evaluate(base, values, question, at.itemId)) hidden.add(questionInstanceKey(at.itemId, at.schemaKey));
    }
  }
  return { model, items: index, hidden };
}

/** For each field (fieldKeyOf(schema, field)), the questions whose visibility reads it. Built once per model. */
export const dependencyMap: (model: FormModel) => ReadonlyMap<string, readonly QuestionModel[]> = oncePerObject((model) => {
  const map = new Map<string, QuestionModel[]>();
  for (const question of model.conditionalQuestions) {
    for (const dep of question.dependsOn) {
      const key = fieldKeyOf(dep.schema_key, dep.field_key);
      map.set(key, [...(map.get(key) ?? []), question]);
    }
  }
  return map;
})

/**
 * The question instances whose visibility can change when the field `name` changes: a top-level field
 * reaches its dependents everywhere; an item's field reaches dependents in that item and its descendants.
 */
export function dependentsOf(model: FormModel, items: ItemIndex, name: string): QuestionInstance[] {
  const field = fieldForName(model, name);
  if (field === undefined) return [];
  const dependents = dependencyMap(model).get(field.id) ?? [];
  if (dependents.length === 0) return [];
  const parsed = parseName(name);
  const itemId = parsed !== null && parsed.scope === 'item' ? parsed.itemId : null;
  const out: QuestionInstance[] = [];
  for (const question of dependents) {
    if (field.groupKey === null) {
      out.push(...instancesOf(question, items));
    } else if (itemId !== null && question.groupKey !== null) {
      const self = items.byId.get(itemId);
      const reach = [...(self === undefined ? [] : [self]), ...items.descendantsOf(itemId)];
      for (const item of reach) {
        if (item.blockKey === question.groupKey) out.push({ schemaKey: question.schemaKey, itemId: item.itemId });
      }
    }
    // A top-level question cannot read an item's field (it has no item to look in): nothing to redo.
  }
  return out;
}

/**
 * Visibility after some fields changed: only their dependents are re-checked. Returns `previous` itself
 * when nothing changed, so a UI can skip re-rendering by identity.
 */
export function updateVisibility(
  previous: VisibilityState,
  values: FormValues,
  changedNames: readonly string[],
): VisibilityState {
  let hidden: Set<string> | undefined;
  for (const name of changedNames) {
    for (const at of dependentsOf(previous.model, previous.items, name)) {
      const question = previous.model.questionBySchemaKey.get(at.schemaKey);
      if (question === undefined) continue;
      const key = questionInstanceKey(at.itemId, at.schemaKey);
      const visible = evaluate(previous, values, question, at.itemId);
      const wasHidden = (hidden ?? previous.hidden).has(key);
      if (visible === !wasHidden) continue; // unchanged
      hidden ??= new Set(previous.hidden);
      if (visible) hidden.delete(key);
      else hidden.add(key);
    }
  }
  return hidden === undefined ? previous : { ...previous, hidden };
}
