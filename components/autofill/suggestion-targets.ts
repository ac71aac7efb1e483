import type { SuggestionView } from '@/lib/bff/autofill';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { fieldOf, humanize, type FieldModel, type FormModel } from '@/lib/forms';

/** What a suggestion is about, in the contract's words, and the answer it would replace as it is now. */
export interface SuggestionTarget {
  field: FieldModel | undefined;
  sectionKey: string;
  sectionLabel: string;
  /** One question instance: the question, and the repeatable item it is in. */
  questionKey: string;
  questionLabel: string;
  fieldLabel: string;
  /** Where the target is in a repeatable group, e.g. "Owners, item 2"; null at the top level. */
  itemLabel: string | null;
}

interface TargetKeys {
  blockKey: string;
  schemaKey: string;
  fieldKey: string;
}

/** The sandbox names a target `block_key/schema_key/field_key`; anything else is read from the labels alone. */
export function targetKeys(s: SuggestionView): TargetKeys | null {
  const parts = s.target_attribute.split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  return { blockKey: parts[0]!, schemaKey: parts[1]!, fieldKey: parts[2]! };
}

/** Identifies a suggestion's answer across suggestions and runs (the same field in the same item). */
export const targetId = (s: SuggestionView) => `${s.target_scope ?? ''}|${s.target_attribute}`;

export function resolveTarget(model: FormModel | null, snapshot: FormSnapshotView | null, s: SuggestionView): SuggestionTarget {
  const keys = targetKeys(s);
  const field = model && keys ? fieldOf(model, keys.schemaKey, keys.fieldKey) : undefined;
  const section = field ? model?.sections.find((x) => x.sectionKey === field.question.sectionKey) : undefined;
  const sectionLabel = section?.label ?? s.section_label ?? 'Other answers';
  const questionLabel = field?.question.label ?? s.question_label ?? s.field_label ?? s.target_attribute;
  return {
    field,
    sectionKey: section?.sectionKey ?? sectionLabel,
    sectionLabel,
    questionKey: `${s.target_scope ?? ''}|${keys?.schemaKey ?? questionLabel}`,
    questionLabel,
    fieldLabel: field?.label ?? s.field_label ?? questionLabel,
    itemLabel: s.target_scope ? itemLabel(snapshot, s.target_scope) : null,
  };
}

function itemLabel(snapshot: FormSnapshotView | null, itemId: string): string {
  const item = snapshot?.items.find((i) => i.item_id === itemId);
  if (!item) return 'a repeated item';
  const siblings = snapshot!.items
    .filter((i) => i.block_key === item.block_key && i.parent_item_id === item.parent_item_id)
    .sort((a, b) => a.order - b.order);
  return `${humanize(item.block_key)}, item ${siblings.indexOf(item) + 1}`;
}

/** The answer the target holds now, as the snapshot read it; null when unanswered. */
export function currentAnswer(snapshot: FormSnapshotView | null, s: SuggestionView): unknown {
  const keys = targetKeys(s);
  if (!snapshot || !keys) return s.current_value;
  const same = (a: { block_key: string; schema_key: string; field_key: string }) =>
    a.schema_key === keys.schemaKey && a.field_key === keys.fieldKey;
  if (s.target_scope) {
    const item = snapshot.items.find((i) => i.item_id === s.target_scope);
    return item?.answers.find(same)?.value ?? null;
  }
  return snapshot.answers.items.find((a) => a.block_key === keys.blockKey && same(a))?.value ?? null;
}
