import 'server-only';
import { answerName, computeVisibility, formModel, formStateFrom, itemName, progressOf, type FormProgress } from '@/lib/forms';
import type { FormSnapshot } from './form-snapshot';

/** How much of a form is answered and what is still missing, from a snapshot, as the form itself counts it. */
export function snapshotProgress(snapshot: FormSnapshot): FormProgress {
  const model = formModel(snapshot.contract);
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  const values = { ...state.values };
  // Attached files are the answers of file questions.
  for (const f of snapshot.files) {
    const name = f.item_id ? itemName(f.item_id, f.schema_key, f.field_key) : answerName(f.block_key, f.schema_key, f.field_key);
    values[name] = [...((values[name] as string[] | undefined) ?? []), f.id];
  }
  return progressOf(model, values, computeVisibility(model, values, state.items));
}
