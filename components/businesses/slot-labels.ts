import type { ContractView } from '@/lib/bff/applications';
import type { UploadSlotView } from '@/lib/bff/businesses';

/** Where a file question's field is, as the sandbox writes request_path and as a file names it. */
export const fileQuestionPath = (f: { block_key: string; schema_key: string; field_key: string }) => `${f.block_key}/${f.schema_key}/${f.field_key}`;

/** The label of every file question's field, by fileQuestionPath. */
export function fileQuestionLabels(contract: ContractView | undefined): Map<string, string> {
  const byPath = new Map<string, string>();
  for (const q of contract?.questions ?? []) {
    for (const f of q.fields) {
      byPath.set(fileQuestionPath({ ...q, field_key: f.field_key }), q.fields.length > 1 ? `${q.label}: ${f.label}` : q.label);
    }
  }
  return byPath;
}

/**
 * What each document slot of a new business is, in the words of the application's own file questions.
 * The spec only calls request_path "a string"; where it names a question (block/schema/field, as the
 * sandbox writes it) the question's label is used, else the path itself is shown.
 */
export function slotLabels(slots: readonly UploadSlotView[], contract: ContractView | undefined): Map<string, string> {
  const byPath = fileQuestionLabels(contract);
  return new Map(slots.map((s) => [s.id, byPath.get(s.request_path) ?? s.request_path]));
}
