import { describe, expect, it } from 'vitest';
import {
  answerName,
  computeVisibility,
  formModel,
  formStateFrom,
  groupName,
  isQuestionVisible,
  itemName,
  progressOf,
  type FieldModel,
  type FormModel,
} from '@/lib/forms';
import type { AnswerValue } from '@/lib/portal';
import { mulberry32 } from '@/server/sandbox/controls/faults';
import { fileValues, lookupFor, requirements } from '@/server/sandbox/domain/answers';
import { contractIndex } from '@/server/sandbox/domain/contract-index';
import { buildDealContract } from '@/server/sandbox/seed/deal-contract';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { buildLargeContract } from '@/server/sandbox/seed/large-contract';
import type { ContractTemplate } from '@/server/sandbox/seed/types';
import type { ApplicationRec, ItemRec } from '@/server/sandbox/store/types';

/**
 * The browser's visibility and progress must agree with the upstream's (here the sandbox's): otherwise
 * the form would hide a question the server requires, or call an application complete that is not.
 * Random applications (seeded, so failures replay) are checked against the sandbox's own functions.
 */

/** A plausible answer for a field, or none: values that drive visibility rules come up often. */
function valueFor(field: FieldModel, example: unknown, random: () => number): AnswerValue | undefined {
  const r = random();
  if (r < 0.3) return undefined;
  const options = field.options?.map((o) => o.answer) ?? [];
  switch (field.widget) {
    case 'yes-no':
      return random() < 0.5;
    case 'checkbox':
      return true;
    case 'radio':
    case 'select':
      return options[Math.floor(random() * options.length)] as AnswerValue;
    case 'checkbox-group':
      return options.filter(() => random() < 0.4) as string[];
    case 'file':
      return undefined;
    default:
      if (r < 0.4) return '';
      return (example ?? 'x') as AnswerValue;
  }
}

function randomApplication(template: ContractTemplate, model: FormModel, random: () => number) {
  const examples = new Map(template.questions.flatMap((q) => q.fields.map((f) => [`${q.schema_key}|${f.field_key}`, f.example])));
  const app: ApplicationRec = {
    id: 'ciappl_parity',
    business_id: 'biz_parity',
    contract_version: template.contract_version,
    revision: 0,
    answers_revision: 0,
    answers: {},
    items: {},
    files: {},
    submitted_at: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    answers_updated_at: null,
  };
  for (const field of model.topFields) {
    const value = valueFor(field, examples.get(`${field.schemaKey}|${field.fieldKey}`), random);
    if (value !== undefined) app.answers[`${field.blockKey}|${field.schemaKey}|${field.fieldKey}`] = value;
  }
  let seq = 0;
  const addItems = (blockKey: string, parent: ItemRec | null) => {
    const group = model.groupByKey.get(blockKey);
    if (group === undefined) return;
    const count = Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      const item: ItemRec = { item_id: `ritem_p${seq}`, block_key: blockKey, parent_item_id: parent?.item_id ?? null, seq: seq++, answers: {} };
      for (const field of group.fields) {
        const value = valueFor(field, examples.get(`${field.schemaKey}|${field.fieldKey}`), random);
        if (value !== undefined) item.answers[`${field.schemaKey}|${field.fieldKey}`] = value;
      }
      app.items[item.item_id] = item;
      for (const child of group.children) addItems(child.blockKey, item);
    }
  };
  for (const group of model.groups.filter((g) => g.parentBlockKey === null)) addItems(group.blockKey, null);
  return app;
}

/** The same application as the form sees it: answer items and item views, as the BFF hands them over. */
function formSide(model: FormModel, app: ApplicationRec) {
  const answers = Object.entries(app.answers).map(([key, value]) => {
    const [block_key = '', schema_key = '', field_key = ''] = key.split('|');
    return { block_key, schema_key, field_key, value };
  });
  const items = Object.values(app.items).map((item) => ({
    item_id: item.item_id,
    block_key: item.block_key,
    parent_item_id: item.parent_item_id,
    order: item.seq,
    answers: Object.entries(item.answers).map(([key, value]) => {
      const [schema_key = '', field_key = ''] = key.split('|');
      return { schema_key, field_key, value };
    }),
  }));
  return formStateFrom(model, answers, items);
}

const CONTRACTS: Array<[string, () => ContractTemplate, number]> = [
  ['funding', buildFundingContract, 150],
  ['deal', buildDealContract, 50],
  ['large', buildLargeContract, 10],
];

describe.each(CONTRACTS)('parity with the sandbox: %s contract', (_name, build, runs) => {
  const template = build();
  const model = formModel(template);
  const index = contractIndex(template);

  it('every question instance is visible exactly when the sandbox says so', () => {
    // Both outcomes of conditional questions must come up, or the comparison proves little.
    const outcomes = { shown: 0, hidden: 0 };
    const tally = (conditional: boolean, visible: boolean) => {
      if (conditional) outcomes[visible ? 'shown' : 'hidden'] += 1;
    };
    for (let seed = 1; seed <= runs; seed++) {
      const app = randomApplication(template, model, mulberry32(seed));
      const state = formSide(model, app);
      const visibility = computeVisibility(model, state.values, state.items);
      const files = fileValues(app);
      for (const q of template.questions) {
        if (!q.is_repeatable) {
          const expected = index.isVisible(q, lookupFor(app, index, files));
          expect(isQuestionVisible(visibility, q.schema_key, null), `seed ${seed} ${q.schema_key}`).toBe(expected);
          tally(q.visibility.rule === 'conditional', expected);
          continue;
        }
        for (const item of Object.values(app.items).filter((i) => i.block_key === q.block_key)) {
          const expected = index.isVisible(q, lookupFor(app, index, files, item));
          expect(isQuestionVisible(visibility, q.schema_key, item.item_id), `seed ${seed} ${q.schema_key}@${item.item_id}`).toBe(expected);
          tally(q.visibility.rule === 'conditional', expected);
        }
      }
    }
    expect(outcomes.shown).toBeGreaterThan(0);
    expect(outcomes.hidden).toBeGreaterThan(0);
  });

  it('what is missing, and the totals, match the sandbox’s requirements', () => {
    for (let seed = 1; seed <= runs; seed++) {
      const app = randomApplication(template, model, mulberry32(seed));
      const state = formSide(model, app);
      const progress = progressOf(model, state.values, computeVisibility(model, state.values, state.items));
      const reqs = requirements(app, index);
      const nameOf = (d: (typeof reqs)[number]['detail']) => {
        if (d.code === 'min_items') return groupName(d.block_key ?? '', d.item_id ?? null);
        return d.item_id === undefined
          ? answerName(d.block_key ?? '', d.schema_key ?? '', d.field_key ?? '')
          : itemName(d.item_id, d.schema_key ?? '', d.field_key ?? '');
      };
      const expectedMissing = reqs.filter((r) => !r.done).map((r) => nameOf(r.detail)).sort();
      expect(progress.missing.map((m) => m.name).sort(), `seed ${seed}`).toEqual(expectedMissing);
      expect(progress.total, `seed ${seed}`).toBe(reqs.length);
      expect(progress.answered, `seed ${seed}`).toBe(reqs.filter((r) => r.done).length);
    }
  });
});
