import type { FormSnapshotView } from '../bff/form-snapshot';
import type { Question, RepeatableGroup } from '../portal/contract';
import { groupFiles } from './file-values';
import { formModel, type FormModel } from './model';
import { progressOf, type SectionProgress } from './progress';
import { formStateFrom } from './values';
import { computeVisibility } from './visibility';

/**
 * What a form page opens with (a large form must be interactive in a quarter of a second): the section
 * the person will see, with everything needed to show it, edit it and check its visibility live, and a
 * compact index of the rest — section titles and progress counts — instead of the whole contract and
 * every answer. The browser reads the whole snapshot once the form is interactive (FormRuntime.upgrade).
 */

/** Progress of the whole form as the server counted it, without the "missing" list (that needs the whole model). */
export interface FormIndex {
  readonly sections: readonly SectionProgress[];
  readonly answered: number;
  readonly total: number;
  readonly percent: number;
}

export interface FormOpening {
  /** The section the opening carries (the one asked for when the contract has it, else the first). */
  readonly sectionKey: string;
  readonly index: FormIndex;
  /** A token that gets the whole snapshot, read for this page, from the server once (no second upstream read). */
  readonly rest?: string;
}

/** A snapshot cut down to one section (contract, answers, items, files) with the index of the whole form. */
export type FormOpeningView = FormSnapshotView & { readonly opening: FormOpening };

// The server keeps one contract object per contract_version (contract cache) and hands out its `questions`
// array as is, so the compiled model of a large contract is made once, not on every page render.
const modelsByQuestions = new WeakMap<readonly Question[], FormModel>();
function modelOf(contract: FormSnapshotView['contract']): FormModel {
  let model = modelsByQuestions.get(contract.questions);
  if (model === undefined) {
    model = formModel(contract);
    modelsByQuestions.set(contract.questions, model);
  }
  return model;
}

/** The groups shown in a section: those at its top level and every group nested in them, whatever section they name. */
function groupsShownIn(model: FormModel, sectionKey: string): Set<string> {
  const keys = new Set<string>();
  const add = (g: FormModel['groups'][number]) => {
    keys.add(g.blockKey);
    g.children.forEach(add);
  };
  model.sections.find((s) => s.sectionKey === sectionKey)?.groups.forEach(add);
  return keys;
}

export function formOpening(snapshot: FormSnapshotView, wanted: string | null): FormOpeningView {
  const model = modelOf(snapshot.contract);
  const section = model.sections.find((s) => s.sectionKey === wanted) ?? model.sections[0];
  const sectionKey = section?.sectionKey ?? '';

  // The whole form's progress, counted like the browser counts it (files answer their fields).
  const state = formStateFrom(model, snapshot.answers.items, snapshot.items);
  const values = { ...state.values };
  for (const [name, list] of groupFiles(snapshot.files)) values[name] = list.map((f) => f.id);
  const progress = progressOf(model, values, computeVisibility(model, values, state.items));

  // The section's questions and groups, and the top-level questions their visibility reads (a condition
  // on a field of another group reads as unanswered outside that group's items, so those are not needed).
  const groups = groupsShownIn(model, sectionKey);
  const questionKeys = new Set<string>();
  for (const entry of section?.entries ?? []) if (entry.type === 'question') questionKeys.add(entry.question.schemaKey);
  for (const key of groups) for (const q of model.groupByKey.get(key)?.questions ?? []) questionKeys.add(q.schemaKey);
  for (const key of [...questionKeys]) {
    for (const dep of model.questionBySchemaKey.get(key)?.dependsOn ?? []) {
      const q = model.questionBySchemaKey.get(dep.schema_key);
      if (q !== undefined && q.groupKey === null) questionKeys.add(q.schemaKey);
    }
  }
  const questionIn = (q: Pick<Question, 'schema_key' | 'block_key' | 'is_repeatable'>) =>
    questionKeys.has(q.schema_key) && (groups.has(q.block_key) || !q.is_repeatable || !model.groupByKey.has(q.block_key));
  const groupIn = (g: RepeatableGroup) => groups.has(g.block_key);

  return {
    application: snapshot.application,
    contract: {
      ...snapshot.contract,
      repeatable_groups: snapshot.contract.repeatable_groups.filter(groupIn),
      questions: snapshot.contract.questions.filter(questionIn),
    },
    answers: { ...snapshot.answers, items: snapshot.answers.items.filter((a) => questionKeys.has(a.schema_key)) },
    items: snapshot.items.filter((i) => groups.has(i.block_key)),
    files: snapshot.files.filter((f) => questionKeys.has(f.schema_key)),
    opening: {
      sectionKey,
      index: { sections: progress.sections, answered: progress.answered, total: progress.total, percent: progress.percent },
    },
  };
}
