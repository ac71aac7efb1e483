import type { ContractView } from '@/lib/bff/applications';
import type { UploadSlotView } from '@/lib/bff/businesses';

/**
 * What each document slot of a new business is, in the words of the application's own file questions.
 * The spec only calls request_path "a string"; where it names a question (block/schema/field, as the
 * sandbox writes it) the question's label is used, else the path itself is shown.
 */
export function slotLabels(slots: readonly UploadSlotView[], contract: ContractView | undefined): Map<string, string> {
  const byPath = new Map<string, string>();
  for (const q of contract?.questions ?? []) {
    for (const f of q.fields) {
      byPath.set(`${q.block_key}/${q.schema_key}/${f.field_key}`, q.fields.length > 1 ? `${q.label}: ${f.label}` : q.label);
    }
  }
  return new Map(slots.map((s) => [s.id, byPath.get(s.request_path) ?? s.request_path]));
}
