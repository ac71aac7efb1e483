import 'server-only';
import type { DealApplicationSummary } from '@/lib/bff/deals';
import { answerName, computeVisibility, formModel, formStateFrom, itemName, progressOf } from '@/lib/forms';
import { readDealFormSnapshot } from './form-snapshot';

export type { DealApplicationSummary };

/** The deal application as a deal page summarises it: its status and how much of it is answered. */
export async function readDealApplicationSummary(dealApplicationId: string): Promise<DealApplicationSummary> {
  const snapshot = await readDealFormSnapshot(dealApplicationId);
  const model = formModel(snapshot.contract);
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  const values = { ...state.values };
  // Attached files are the answers of file questions.
  for (const f of snapshot.files) {
    const name = f.item_id ? itemName(f.item_id, f.schema_key, f.field_key) : answerName(f.block_key, f.schema_key, f.field_key);
    values[name] = [...((values[name] as string[] | undefined) ?? []), f.id];
  }
  const { answered, total, percent } = progressOf(model, values, computeVisibility(model, values, state.items));
  return { application: snapshot.application, title: snapshot.contract.application_name, progress: { answered, total, percent } };
}
