import type { AnswerValue } from '@/lib/portal';
import { fileValues, itemValue, specLimitIssues, topValue } from '../domain/answers';
import type { ContractIndex, FieldInfo } from '../domain/contract-index';
import type { ApplicationRec } from '../store/types';
import type { TargetField } from './engine';

/** Where a suggestion writes: a top-level answer, or an answer of one repeatable item. */
export interface TargetRef {
  info: FieldInfo;
  itemId: string | null;
}

export const targetId = (info: FieldInfo, itemId: string | null) => `${info.key}|${itemId ?? ''}`;

const orderCache = new WeakMap<ContractIndex, Map<FieldInfo, number>>();

/** Contract order of every field (sections, questions, fields), from 1. */
function displayOrder(index: ContractIndex, info: FieldInfo): number {
  let order = orderCache.get(index);
  if (!order) {
    order = new Map([...index.byKey.values()].map((f, i) => [f, i + 1]));
    orderCache.set(index, order);
  }
  return order.get(info) ?? Number.MAX_SAFE_INTEGER;
}

/** The value a target holds now; undefined when the target is gone (its item was deleted). */
export function currentValueOf(app: ApplicationRec, ref: TargetRef, files = fileValues(app)): AnswerValue | undefined {
  if (!ref.itemId) return topValue(app, ref.info, files);
  const item = app.items[ref.itemId];
  if (!item || item.block_key !== ref.info.group?.block_key) return undefined;
  return itemValue(item, ref.info, files);
}

/**
 * The fields Autofill may fill, for the engine: every writable field outside repeatable groups, and the fields
 * of a top-level group's item when the group has exactly one (the evidence then describes that item: the
 * one owner, the one asset). File questions take files, not values, and are left out. `vocabulary` is every
 * writable field of the contract, which the engine uses to weigh words.
 */
export function targetsFor(
  app: ApplicationRec,
  index: ContractIndex,
): { fields: TargetField[]; refs: Map<string, TargetRef>; vocabulary: TargetField[] } {
  const files = fileValues(app);
  const refs = new Map<string, TargetRef>();
  const writable = (info: FieldInfo) => !info.isFile && info.question.answer_operations.includes('update');
  const build = (info: FieldInfo, itemId: string | null, groupLabel: string | null): TargetField => {
    const ref = { info, itemId };
    return {
      id: targetId(info, itemId),
      questionId: `${info.question.block_key}|${info.question.schema_key}|${itemId ?? ''}`,
      kind: info.question.kind,
      sectionLabel: info.section.label,
      questionLabel: info.question.label,
      fieldLabel: info.field.label,
      questionHelp: info.question.help_text,
      fieldHelp: info.field.help_text,
      schemaKey: info.question.schema_key,
      fieldKey: info.field.field_key,
      groupLabel,
      valueSchema: info.field.value_schema,
      allowedValues: info.allowedValues,
      multiField: info.question.fields.length > 1,
      currentValue: currentValueOf(app, ref, files) ?? null,
      order: displayOrder(index, info),
      validate: (value) => specLimitIssues(value) ?? info.validate(value),
    };
  };
  const fields: TargetField[] = [];
  const push = (info: FieldInfo, itemId: string | null, groupLabel: string | null) => {
    if (!writable(info)) return;
    refs.set(targetId(info, itemId), { info, itemId });
    fields.push(build(info, itemId, groupLabel));
  };
  for (const info of index.topFields) push(info, null, null);
  const items = Object.values(app.items);
  for (const g of index.topGroups) {
    const mine = items.filter((i) => i.block_key === g.group.block_key && i.parent_item_id === null);
    if (mine.length !== 1) continue;
    for (const info of g.fields) push(info, mine[0]!.item_id, g.label);
  }
  const vocabulary = [...index.byKey.values()]
    .filter(writable)
    .map((info) => (info.group ? build(info, null, index.groups.get(info.group.block_key)?.label ?? null) : build(info, null, null)));
  return { fields, refs, vocabulary };
}
