import { isAnswered } from '@/lib/contract';
import { MESSAGES } from '@/lib/contract/value-messages';
import { LIMITS, type AnswerItem, type AnswerValue, type AnswerWrite, type ErrorDetail } from '@/lib/portal';
import { SandboxError } from '../http/errors';
import type { ApplicationRec, ItemRec } from '../store/types';
import { type ContractIndex, type FieldInfo, answerKey, itemAnswerKey } from './contract-index';

/** File-question values are the ids of the files attached, derived from the application's files. */
export function fileValues(app: ApplicationRec): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const files = Object.values(app.files).sort((a, b) => a.seq - b.seq);
  for (const f of files) {
    const k = `${f.item_id ?? ''}#${f.block_key}|${f.schema_key}|${f.field_key}`;
    const list = out.get(k) ?? [];
    list.push(f.id);
    out.set(k, list);
  }
  return out;
}

const fileKey = (itemId: string | null, info: FieldInfo) =>
  `${itemId ?? ''}#${info.question.block_key}|${info.question.schema_key}|${info.field.field_key}`;

export function answerItem(info: FieldInfo, value: AnswerValue): AnswerItem {
  return {
    section_key: info.section.section_key,
    section_label: info.section.label,
    block_key: info.question.block_key,
    block_label: info.blockLabel,
    schema_key: info.question.schema_key,
    field_key: info.field.field_key,
    field_label: info.field.label,
    value_type: info.valueType,
    is_required: info.required,
    allowed_values: info.allowedValues,
    value,
  };
}

export function topValue(app: ApplicationRec, info: FieldInfo, files: Map<string, string[]>): AnswerValue {
  if (info.isFile) return files.get(fileKey(null, info)) ?? null;
  return app.answers[info.key] ?? null;
}

export function itemValue(item: ItemRec, info: FieldInfo, files: Map<string, string[]>): AnswerValue {
  if (info.isFile) return files.get(fileKey(item.item_id, info)) ?? null;
  return item.answers[info.itemKey] ?? null;
}

/** Looks a condition's field up in an item, its ancestors, then the top-level answers. */
export function lookupFor(app: ApplicationRec, index: ContractIndex, files: Map<string, string[]>, item?: ItemRec) {
  return (schemaKey: string, fieldKey: string): AnswerValue | undefined => {
    const info = index.bySchemaField.get(itemAnswerKey(schemaKey, fieldKey));
    if (!info) return undefined;
    if (!info.group) return topValue(app, info, files);
    let cur: ItemRec | undefined = item;
    while (cur) {
      if (cur.block_key === info.group.block_key) return itemValue(cur, info, files);
      cur = cur.parent_item_id ? app.items[cur.parent_item_id] : undefined;
    }
    return undefined;
  };
}

export function itemAnswers(app: ApplicationRec, index: ContractIndex, item: ItemRec, files: Map<string, string[]>) {
  const group = index.groups.get(item.block_key);
  if (!group) return [];
  return group.fields.map((info) => answerItem(info, itemValue(item, info, files)));
}

/** Issues with the spec's answer value limits (§8), or undefined when the value is within them. */
export function specLimitIssues(value: unknown): Array<{ code: string; message: string }> | undefined {
  if (typeof value === 'string' && value.length > LIMITS.answerStringMax) {
    return [{ code: 'too_long', message: MESSAGES.maxLength(LIMITS.answerStringMax) }];
  }
  if (!Array.isArray(value)) return undefined;
  if (value.length > LIMITS.answerArrayMaxItems) {
    return [{ code: 'too_many_items', message: MESSAGES.maxItems(LIMITS.answerArrayMaxItems, false) }];
  }
  const issues = value.flatMap((item, i) =>
    typeof item === 'string' && item.length > LIMITS.answerArrayStringMax
      ? [{ code: 'item_too_long', message: MESSAGES.item(i, MESSAGES.maxLength(LIMITS.answerArrayStringMax)) }]
      : [],
  );
  return issues.length > 0 ? issues : undefined;
}

/**
 * Validates writes against the contract and value schemas. All-or-nothing: every problem is reported,
 * nothing is written when there is one.
 */
export function checkWrites(
  index: ContractIndex,
  writes: Array<{ block_key: string; schema_key: string; field_key: string; value: unknown }>,
  resolve: (w: { block_key: string; schema_key: string; field_key: string }) => FieldInfo | undefined,
  itemId?: string,
): FieldInfo[] {
  const details: ErrorDetail[] = [];
  const infos: FieldInfo[] = [];
  const seen = new Set<string>();
  for (const w of writes) {
    const at = { block_key: w.block_key, schema_key: w.schema_key, field_key: w.field_key, ...(itemId ? { item_id: itemId } : {}) };
    const info = resolve(w);
    if (!info) {
      // A field of a repeatable group named at the top level gets a pointer to where its answers live.
      const other = index.byKey.get(answerKey(w.block_key, w.schema_key, w.field_key));
      details.push(
        other?.group
          ? { code: 'repeatable_field', message: 'Answers of repeatable groups are written through repeatable_items_url.', ...at }
          : { code: 'unknown_field', message: 'This question is not part of the contract.', ...at },
      );
      continue;
    }
    if (seen.has(info.key)) {
      details.push({ code: 'duplicate_field', message: 'This field appears twice in one write.', ...at });
      continue;
    }
    seen.add(info.key);
    if (info.isFile) {
      details.push({ code: 'file_field', message: 'Files are attached through file_uploads_url, not written as answers.', ...at });
      continue;
    }
    if (!info.question.answer_operations.includes('update')) {
      details.push({ code: 'read_only', message: 'This answer cannot be updated.', ...at });
      continue;
    }
    // The spec's limits (§8) hold whatever the contract says, so they are checked first and reported as such.
    const issues = specLimitIssues(w.value) ?? info.validate(w.value);
    for (const issue of issues) details.push({ code: issue.code, message: issue.message, ...at });
    infos.push(info);
  }
  if (details.length > 0) throw new SandboxError('validation_failed', 'Some answers are not valid.', details);
  return infos;
}

export function topWriteResolver(index: ContractIndex) {
  return (w: { block_key: string; schema_key: string; field_key: string }) => {
    const info = index.byKey.get(`${w.block_key}|${w.schema_key}|${w.field_key}`);
    return info && !info.group ? info : undefined;
  };
}

/** Applies validated top-level writes; returns what changed (only changed values move the revision). */
export function applyTopWrites(app: ApplicationRec, infos: FieldInfo[], values: unknown[]) {
  const updated: AnswerWrite[] = [];
  const sections = new Set<string>();
  infos.forEach((info, i) => {
    const value = (values[i] ?? null) as AnswerValue;
    const before = app.answers[info.key] ?? null;
    updated.push({ block_key: info.question.block_key, schema_key: info.question.schema_key, field_key: info.field.field_key, value });
    sections.add(info.section.section_key);
    if (JSON.stringify(before) === JSON.stringify(value)) return;
    if (value === null) delete app.answers[info.key];
    else app.answers[info.key] = value;
  });
  return { updated, sections };
}

interface Requirement {
  done: boolean;
  detail: ErrorDetail;
}

/**
 * What the application requires now, with visibility taken into account: required fields of visible
 * questions (top level and in every item) and each group's min_items/max_items per parent.
 */
export function requirements(app: ApplicationRec, index: ContractIndex): Requirement[] {
  const files = fileValues(app);
  const out: Requirement[] = [];
  const topLookup = lookupFor(app, index, files);
  for (const info of index.topFields) {
    if (!info.required || !index.isVisible(info.question, topLookup)) continue;
    out.push({
      done: isAnswered(topValue(app, info, files)),
      detail: { code: 'required', message: `Answer “${info.question.label}${info.question.fields.length > 1 ? ` – ${info.field.label}` : ''}”.`, block_key: info.question.block_key, schema_key: info.question.schema_key, field_key: info.field.field_key },
    });
  }
  const items = Object.values(app.items);
  const visitGroups = (groupKeys: string[], parent: ItemRec | null) => {
    for (const key of groupKeys) {
      const gi = index.groups.get(key);
      if (!gi) continue;
      const mine = items.filter((it) => it.block_key === key && it.parent_item_id === (parent?.item_id ?? null));
      const { min_items: min } = gi.group;
      if (min !== null && min > 0) {
        out.push({
          done: mine.length >= min,
          detail: { code: 'min_items', message: `Add at least ${min} ${gi.label.toLowerCase()} item${min === 1 ? '' : 's'}.`, block_key: key, ...(parent ? { item_id: parent.item_id } : {}) },
        });
      }
      for (const item of mine.sort((a, b) => a.seq - b.seq)) {
        const lookup = lookupFor(app, index, files, item);
        for (const info of gi.fields) {
          if (!info.required || !index.isVisible(info.question, lookup)) continue;
          out.push({
            done: isAnswered(itemValue(item, info, files)),
            detail: { code: 'required', message: `Answer “${info.question.label}” in ${gi.label.toLowerCase()}.`, block_key: key, schema_key: info.question.schema_key, field_key: info.field.field_key, item_id: item.item_id },
          });
        }
        visitGroups(gi.childBlockKeys, item);
      }
    }
  };
  visitGroups(index.topGroups.map((g) => g.group.block_key), null);
  return out;
}

export function progressOf(app: ApplicationRec, index: ContractIndex) {
  const reqs = requirements(app, index);
  const total = reqs.length;
  const completed = reqs.filter((r) => r.done).length;
  return { completed_items: completed, total_items: total, percent: total === 0 ? 100 : Math.floor((completed * 100) / total) };
}
