import 'server-only';
import {
  answerName,
  computeVisibility,
  fieldLabel,
  formModel,
  formStateFrom,
  indexItems,
  isQuestionVisible,
  itemName,
  readableValue,
  toAnswerValue,
  type GroupModel,
  type QuestionModel,
} from '@/lib/forms';
import type { ReviewItemView } from '@/lib/bff/review-marks';
import type { FormSnapshotView as FormSnapshot } from '@/lib/bff/form-snapshot';

/** One answer review mode shows, with the value a mark is compared with. */
export interface AnswerToReview {
  key: string;
  fieldName: string;
  schemaKey: string;
  fieldKey: string;
  itemId: string | null;
  fileId: string | null;
  label: string;
  valueText: string;
  /** The answer's value (an attached file: its id), what a mark keeps and is compared with. */
  value: unknown;
}

export interface SectionToReview {
  sectionKey: string;
  label: string;
  answers: AnswerToReview[];
  items: ReviewItemView[];
}

/**
 * What there is to review, section by section in the form's order: every answered field of every shown
 * question (inside each item of a list too) and every attached file on its own. Unanswered optional
 * questions and hidden ones are not reviewed: the client sees no such answer either.
 */
export function answersToReview(snapshot: FormSnapshot): SectionToReview[] {
  const model = formModel(snapshot.contract);
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  const index = indexItems(state.items);
  const visibility = computeVisibility(model, state.values, index);
  const filesOf = (schemaKey: string, fieldKey: string, itemId: string | null) =>
    snapshot.files.filter((f) => f.schema_key === schemaKey && f.field_key === fieldKey && (f.item_id ?? null) === itemId);

  const questionAnswers = (question: QuestionModel, itemId: string | null, place: string): AnswerToReview[] => {
    if (!isQuestionVisible(visibility, question.schemaKey, itemId)) return [];
    return question.fields.flatMap((field): AnswerToReview[] => {
      const fieldName = itemId ? itemName(itemId, field.schemaKey, field.fieldKey) : answerName(field.blockKey, field.schemaKey, field.fieldKey);
      const base = { fieldName, schemaKey: field.schemaKey, fieldKey: field.fieldKey, itemId };
      if (field.widget === 'file') {
        return filesOf(field.schemaKey, field.fieldKey, itemId).map((f) => ({
          ...base,
          key: `${fieldName}#${f.id}`,
          fileId: f.id,
          label: `${place}${fieldLabel(field)}: ${f.filename}`,
          valueText: f.filename,
          value: f.id,
        }));
      }
      const text = readableValue(field, state.values[fieldName]);
      if (text === null) return [];
      return [{ ...base, key: fieldName, fileId: null, label: `${place}${fieldLabel(field)}`, valueText: text, value: toAnswerValue(field, state.values[fieldName]) ?? null }];
    });
  };

  const groupAnswers = (group: GroupModel, parentItemId: string | null, parentPlace: string, out: SectionToReview) => {
    index.childrenOf(group.blockKey, parentItemId).forEach((item, i) => {
      const place = `${parentPlace}${group.label}, item ${i + 1}`;
      out.items.push({ block_key: group.blockKey, item_id: item.itemId, label: place });
      for (const question of group.questions) out.answers.push(...questionAnswers(question, item.itemId, `${place}: `));
      for (const child of group.children) groupAnswers(child, item.itemId, `${place} › `, out);
    });
  };

  return model.sections.map((section) => {
    const out: SectionToReview = { sectionKey: section.sectionKey, label: section.label, answers: [], items: [] };
    for (const entry of section.entries) {
      if (entry.type === 'question') out.answers.push(...questionAnswers(entry.question, null, ''));
      else groupAnswers(entry.group, null, '', out);
    }
    return out;
  });
}
