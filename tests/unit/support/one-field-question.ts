import type { Question, QuestionField } from '@/lib/portal/contract';

/** A plain question of section s1 with one field `value`, always visible and writable: what a unit test varies is given. */
export function oneFieldQuestion(o: {
  schema_key: string;
  kind: string;
  label: string;
  value_schema: QuestionField['value_schema'];
  help_text?: string | null;
}): Question {
  return {
    block_key: o.schema_key,
    schema_key: o.schema_key,
    section_key: 's1',
    parent_block_key: null,
    kind: o.kind,
    label: o.label,
    help_text: o.help_text ?? null,
    is_required: false,
    is_repeatable: false,
    answer_shape: 'field',
    order: 1,
    answer_operations: ['read', 'update'],
    visibility: { rule: 'always' },
    fields: [{ field_key: 'value', label: o.label, help_text: null, is_required: false, value_schema: o.value_schema, example: null }],
  };
}
