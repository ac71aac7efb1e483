import 'server-only';
import { answerName, computeVisibility, fieldForName, formModel, formStateFrom, isEmptyValue, isQuestionVisible, itemName, progressOf, type FormModel, type FormProgress } from '@/lib/forms';
import type { FormSnapshot } from './form-snapshot';

/** How much of a form is answered and what is still missing, from a snapshot, as the form itself counts it. */
export function snapshotProgress(snapshot: FormSnapshot): FormProgress {
  const model = formModel(snapshot.contract);
  const { values, visibility } = factsOf(model, snapshot);
  return progressOf(model, values, visibility);
}

/**
 * What is left to do, by label, as a client reads it: the sections not complete, and the documents still to
 * upload (every file question shown at the top level with no file yet, and every required one in an item),
 * each once, in the form's order.
 */
export function snapshotLeft(snapshot: FormSnapshot): { sections: string[]; documents: string[] } {
  const model = formModel(snapshot.contract);
  const { values, visibility } = factsOf(model, snapshot);
  const progress = progressOf(model, values, visibility);
  const topLevel = model.topFields
    .filter((f) => f.widget === 'file' && isQuestionVisible(visibility, f.schemaKey, null) && isEmptyValue(values[f.name!]))
    .map((f) => f.question.label);
  const inItems = progress.missing.filter((m) => m.kind === 'field' && m.itemId !== null && fieldForName(model, m.name)?.widget === 'file').map((m) => m.label);
  return { sections: progress.sections.filter((s) => !s.complete).map((s) => s.label), documents: [...new Set([...topLevel, ...inItems])] };
}

function factsOf(model: FormModel, snapshot: FormSnapshot) {
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  const values = { ...state.values };
  // Attached files are the answers of file questions.
  for (const f of snapshot.files) {
    const name = f.item_id ? itemName(f.item_id, f.schema_key, f.field_key) : answerName(f.block_key, f.schema_key, f.field_key);
    values[name] = [...((values[name] as string[] | undefined) ?? []), f.id];
  }
  return { values, visibility: computeVisibility(model, values, state.items) };
}
