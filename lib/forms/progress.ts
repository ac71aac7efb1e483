import { isAnswered } from '../contract';
import type { FormValues } from './equality';
import type { FieldModel, FormModel, GroupModel } from './model';
import { groupName, itemName, questionInstanceKey } from './names';
import { toAnswerValue } from './values';
import type { VisibilityState } from './visibility';

/**
 * Progress for the section navigation and the "what is still missing" list. What counts is what the
 * sandbox's progress counts (server/sandbox/domain/answers.ts requirements): each required field of a
 * visible question, at the top level and in every item, and each group's min_items per parent.
 */

export interface MissingEntry {
  /** The field's name, or the group's name (names.groupName) for too few items. */
  readonly name: string;
  readonly sectionKey: string;
  readonly kind: 'field' | 'group';
  /** The question's label, with the field's for a multi-field question ("Home address – Postcode"). */
  readonly label: string;
  /** For fields in items and for groups: the group's label and block key. */
  readonly groupKey: string | null;
  readonly groupLabel: string | null;
  /** The item the field is in, and its place among its siblings counted from 1 ("Owners 2"). */
  readonly itemId: string | null;
  readonly itemNumber: number | null;
}

export interface SectionProgress {
  readonly sectionKey: string;
  readonly label: string;
  readonly answered: number;
  readonly total: number;
  /** 0-100, rounded down like the upstream's; 100 when nothing is required. */
  readonly percent: number;
  readonly complete: boolean;
}

export interface FormProgress {
  readonly sections: readonly SectionProgress[];
  readonly answered: number;
  readonly total: number;
  readonly percent: number;
  /** Everything still required, in display order. */
  readonly missing: readonly MissingEntry[];
}

const percentOf = (answered: number, total: number): number =>
  total === 0 ? 100 : Math.floor((answered * 100) / total);

/** Where a field sits when it is in a repeatable item. */
interface ItemPlace {
  readonly item: string;
  readonly number: number;
  readonly group: GroupModel;
}

/** A field's label as a person reads it: its question's, with the field's for a multi-field question. */
export const fieldLabel = (field: FieldModel): string =>
  field.question.fields.length > 1 ? `${field.question.label} – ${field.label}` : field.question.label;

export function progressOf(model: FormModel, values: FormValues, visibility: VisibilityState): FormProgress {
  const { hidden, items } = visibility;
  const counts = new Map<string, { answered: number; total: number }>();
  const missing: MissingEntry[] = [];
  const count = (sectionKey: string, done: boolean) => {
    const c = counts.get(sectionKey) ?? { answered: 0, total: 0 };
    c.total += 1;
    if (done) c.answered += 1;
    counts.set(sectionKey, c);
  };

  const requireField = (field: FieldModel, name: string, sectionKey: string, at: ItemPlace | null) => {
    if (!field.required || hidden.has(questionInstanceKey(at?.item ?? null, field.schemaKey))) return;
    const done = isAnswered(toAnswerValue(field, values[name]));
    count(sectionKey, done);
    if (!done) {
      missing.push({
        name,
        sectionKey,
        kind: 'field',
        label: fieldLabel(field),
        groupKey: at?.group.blockKey ?? null,
        groupLabel: at?.group.label ?? null,
        itemId: at?.item ?? null,
        itemNumber: at?.number ?? null,
      });
    }
  };

  // Groups and their items depth-first under each parent, so missing entries follow the page.
  const visitGroup = (group: GroupModel, parentItemId: string | null, parentNumber: number | null) => {
    if (group.minItems !== null && group.minItems > 0) {
      const short = items.childrenOf(group.blockKey, parentItemId).length < group.minItems;
      count(group.sectionKey, !short);
      if (short) {
        missing.push({
          name: groupName(group.blockKey, parentItemId),
          sectionKey: group.sectionKey,
          kind: 'group',
          label: group.label,
          groupKey: group.blockKey,
          groupLabel: group.label,
          itemId: parentItemId,
          itemNumber: parentNumber,
        });
      }
    }
    items.childrenOf(group.blockKey, parentItemId).forEach((item, i) => {
      const at = { item: item.itemId, number: i + 1, group };
      for (const field of group.fields) {
        requireField(field, itemName(item.itemId, field.schemaKey, field.fieldKey), group.sectionKey, at);
      }
      for (const child of group.children) visitGroup(child, item.itemId, i + 1);
    });
  };

  for (const section of model.sections) {
    for (const entry of section.entries) {
      if (entry.type === 'question') {
        for (const field of entry.question.fields) requireField(field, field.name as string, section.sectionKey, null);
      } else {
        visitGroup(entry.group, null, null);
      }
    }
  }

  const sections = model.sections.map((s) => {
    const c = counts.get(s.sectionKey) ?? { answered: 0, total: 0 };
    return {
      sectionKey: s.sectionKey,
      label: s.label,
      answered: c.answered,
      total: c.total,
      percent: percentOf(c.answered, c.total),
      complete: c.answered === c.total,
    };
  });
  const answered = sections.reduce((n, s) => n + s.answered, 0);
  const total = sections.reduce((n, s) => n + s.total, 0);
  return { sections, answered, total, percent: percentOf(answered, total), missing };
}
