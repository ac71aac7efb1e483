import 'server-only';
import type { ChangeTarget } from '@/lib/bff/review';
import { answerName, fieldLabel as labelOf, fieldOf, formModel, itemName, type FormModel } from '@/lib/forms';
import type { ApplicationContract } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';

const refuse = (message: string, parameter: string) => new AppError('validation_failed', message, [{ code: 'invalid', message, parameter }]);

const fieldAndLabel = (model: FormModel, schemaKey: string, fieldKey: string) => {
  const field = fieldOf(model, schemaKey, fieldKey);
  if (!field) return null;
  return { field, label: labelOf(field) };
};

/**
 * What a request points at, checked against the application's contract: its label as the client reads it
 * and the block it is in. An answer inside a repeatable item names that item; one outside names none.
 */
export function describeTarget(contract: ApplicationContract, target: ChangeTarget): { label: string; blockKey: string } {
  const model = formModel(contract);
  if (target.kind === 'item') {
    const group = model.groupByKey.get(target.block_key);
    if (!group) throw refuse('The form has no such list.', 'target.block_key');
    return { label: `${group.label} (one item)`, blockKey: group.blockKey };
  }
  const found = fieldAndLabel(model, target.schema_key, target.field_key);
  if (!found) throw refuse('The form has no such question.', 'target.schema_key');
  const inGroup = found.field.groupKey !== null;
  if (inGroup !== Boolean(target.item_id)) throw refuse(inGroup ? 'This question is in a list: name its item.' : 'This question is not in a list.', 'target.item_id');
  if ((found.field.widget === 'file') !== (target.kind === 'file')) throw refuse(target.kind === 'file' ? 'This question takes no files.' : 'Point at the file, not the question.', 'target.kind');
  return { label: target.kind === 'file' ? `${found.label} (one file)` : found.label, blockKey: found.field.blockKey };
}

/** The form's name of the field a request is about (what its link focuses), or null when there is none. */
export function fieldNameOf(model: FormModel, r: { target: string; block_key: string; schema_key: string; field_key: string; item_id: string }): string | null {
  if (r.target === 'item') {
    const first = model.groupByKey.get(r.block_key)?.fields[0];
    return first && r.item_id ? itemName(r.item_id, first.schemaKey, first.fieldKey) : null;
  }
  if (!fieldOf(model, r.schema_key, r.field_key)) return null;
  return r.item_id ? itemName(r.item_id, r.schema_key, r.field_key) : answerName(r.block_key, r.schema_key, r.field_key);
}
