import { allowedValuesOf, compileValueSchema, compileVisibility, valueTypeOf, type ValueIssue } from '@/lib/contract';
import type { AnswerValue, ContractSection, Question, QuestionField, RepeatableGroup } from '@/lib/portal';
import type { ContractTemplate } from '../seed/types';

export interface FieldInfo {
  question: Question;
  field: QuestionField;
  section: ContractSection;
  /** `block|schema|field`: the key of a top-level answer. */
  key: string;
  /** `schema|field`: the key inside a repeatable item. */
  itemKey: string;
  group: RepeatableGroup | null;
  isFile: boolean;
  required: boolean;
  valueType: string;
  allowedValues: string[];
  validate: (value: unknown) => readonly ValueIssue[];
  blockLabel: string;
}

export interface GroupInfo {
  group: RepeatableGroup;
  label: string;
  /** Fields of the group's questions, in display order. */
  fields: FieldInfo[];
  byItemKey: Map<string, FieldInfo>;
  childBlockKeys: string[];
}

type Lookup = (schemaKey: string, fieldKey: string) => AnswerValue | undefined;

/** A contract compiled once per contract_version: ordered fields, lookups and validators. */
export interface ContractIndex {
  template: ContractTemplate;
  sectionByKey: Map<string, ContractSection>;
  /** Fields outside repeatable groups, in section, question and field order. */
  topFields: FieldInfo[];
  topFieldsBySection: Map<string, FieldInfo[]>;
  byKey: Map<string, FieldInfo>;
  /** Every field by `schema|field` (schema keys are unique in a contract). */
  bySchemaField: Map<string, FieldInfo>;
  groups: Map<string, GroupInfo>;
  topGroups: GroupInfo[];
  isVisible(question: Question, lookup: Lookup): boolean;
}

const humanize = (key: string) => {
  const s = key.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
};

export const answerKey = (block: string, schema: string, field: string) => `${block}|${schema}|${field}`;
export const itemAnswerKey = (schema: string, field: string) => `${schema}|${field}`;

export function compileContract(template: ContractTemplate): ContractIndex {
  const sectionByKey = new Map(template.sections.map((s) => [s.section_key, s]));
  const sectionOrder = (key: string) => sectionByKey.get(key)?.order ?? Number.MAX_SAFE_INTEGER;
  const groupsByBlock = new Map(template.repeatable_groups.map((g) => [g.block_key, g]));
  const questions = [...template.questions].sort(
    (a, b) => sectionOrder(a.section_key) - sectionOrder(b.section_key) || a.order - b.order,
  );

  const byKey = new Map<string, FieldInfo>();
  const bySchemaField = new Map<string, FieldInfo>();
  const topFields: FieldInfo[] = [];
  const topFieldsBySection = new Map<string, FieldInfo[]>();
  const groups = new Map<string, GroupInfo>();
  for (const g of template.repeatable_groups) {
    groups.set(g.block_key, { group: g, label: humanize(g.block_key), fields: [], byItemKey: new Map(), childBlockKeys: [] });
  }
  for (const g of template.repeatable_groups) {
    if (g.parent_block_key) groups.get(g.parent_block_key)?.childBlockKeys.push(g.block_key);
  }

  const visibilityByQuestion = new Map<Question, (lookup: Lookup) => boolean>();
  for (const q of questions) {
    visibilityByQuestion.set(q, compileVisibility(q.visibility));
    const section = sectionByKey.get(q.section_key) ?? { section_key: q.section_key, label: q.section_key, order: 0 };
    const group = q.is_repeatable ? (groupsByBlock.get(q.block_key) ?? null) : null;
    for (const f of q.fields) {
      const info: FieldInfo = {
        question: q,
        field: f,
        section,
        key: answerKey(q.block_key, q.schema_key, f.field_key),
        itemKey: itemAnswerKey(q.schema_key, f.field_key),
        group,
        isFile: q.answer_shape === 'file',
        required: q.is_required && f.is_required,
        valueType: valueTypeOf(f.value_schema),
        allowedValues: allowedValuesOf(f.value_schema),
        validate: compileValueSchema(f.value_schema),
        blockLabel: group ? humanize(group.block_key) : q.label,
      };
      byKey.set(info.key, info);
      bySchemaField.set(info.itemKey, info);
      if (group) {
        const gi = groups.get(group.block_key)!;
        gi.fields.push(info);
        gi.byItemKey.set(info.itemKey, info);
      } else {
        topFields.push(info);
        const list = topFieldsBySection.get(q.section_key) ?? [];
        list.push(info);
        topFieldsBySection.set(q.section_key, list);
      }
    }
  }

  return {
    template,
    sectionByKey,
    topFields,
    topFieldsBySection,
    byKey,
    bySchemaField,
    groups,
    topGroups: [...groups.values()].filter((g) => g.group.parent_block_key === null),
    isVisible: (q, lookup) => (visibilityByQuestion.get(q) ?? (() => true))(lookup),
  };
}

const cache = new WeakMap<ContractTemplate, ContractIndex>();

/** Compiled once per template object: the hot paths (answer reads and writes) never recompile. */
export function contractIndex(template: ContractTemplate): ContractIndex {
  let index = cache.get(template);
  if (!index) {
    index = compileContract(template);
    cache.set(template, index);
  }
  return index;
}
