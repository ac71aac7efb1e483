import { describe, expect, it } from 'vitest';
import {
  answerName,
  computeVisibility,
  dependencyMap,
  dependentsOf,
  fieldKeyOf,
  formModel,
  formStateFrom,
  indexItems,
  isNameVisible,
  isQuestionVisible,
  itemName,
  updateVisibility,
  type FormContract,
  type FormItem,
  type FormValues,
} from '@/lib/forms';
import type { Question, RepeatableGroup, Visibility } from '@/lib/portal';
import { buildLargeContract } from '@/server/sandbox/seed/large-contract';
import { emptyFunding as empty, funding, top } from './support/funding-form';

const withValues = (changes: FormValues): FormValues => ({ ...empty, ...changes });
const visibleTop = (values: FormValues, schemaKey: string) =>
  isQuestionVisible(computeVisibility(funding, values), schemaKey, null);

describe('top-level conditions of the funding contract', () => {
  it('equals (any of): registration number for incorporated types only', () => {
    expect(visibleTop(empty, 'registration_number')).toBe(false);
    expect(visibleTop(withValues({ [top('company_type')]: 'llp' }), 'registration_number')).toBe(true);
    expect(visibleTop(withValues({ [top('company_type')]: 'sole_trader' }), 'registration_number')).toBe(false);
  });

  it('equals true on a yes/no', () => {
    expect(visibleTop(withValues({ [top('has_existing_debt')]: true }), 'existing_debt_amount')).toBe(true);
    expect(visibleTop(withValues({ [top('has_existing_debt')]: false }), 'existing_debt_amount')).toBe(false);
    expect(visibleTop(empty, 'existing_debt_amount')).toBe(false);
  });

  it('includes on a multi choice', () => {
    expect(visibleTop(withValues({ [top('funding_purpose')]: ['equipment', 'other'] }), 'purpose_details')).toBe(true);
    expect(visibleTop(withValues({ [top('funding_purpose')]: ['equipment'] }), 'purpose_details')).toBe(false);
  });

  it('answered and not_answered, where blank text is not an answer', () => {
    expect(visibleTop(empty, 'online_presence_url')).toBe(true);
    expect(visibleTop(withValues({ [top('website')]: 'https://x.example' }), 'online_presence_url')).toBe(false);
    expect(visibleTop(withValues({ [top('website')]: '   ' }), 'online_presence_url')).toBe(true);
    expect(visibleTop(withValues({ [top('accountant_name')]: 'Whitfield & Co' }), 'accountant_email')).toBe(true);
    expect(visibleTop(empty, 'accountant_email')).toBe(false);
  });

  it('always-visible questions are never hidden, and field names follow their question', () => {
    const state = computeVisibility(funding, empty);
    expect(isQuestionVisible(state, 'legal_name', null)).toBe(true);
    expect(isNameVisible(state, top('legal_name'))).toBe(true);
    expect(isNameVisible(state, top('registration_number'))).toBe(false);
    expect(isNameVisible(state, 'a.unknown.unknown.value')).toBe(true);
  });
});

describe('conditions inside repeatable items', () => {
  const items: FormItem[] = [
    { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
    { itemId: 'ritem_o2', blockKey: 'owners', parentItemId: null, order: 1 },
  ];

  it('resolve in the same item', () => {
    const values = {
      ...empty,
      [itemName('ritem_o1', 'owner_is_guarantor', 'value')]: true,
      [itemName('ritem_o2', 'owner_is_guarantor', 'value')]: false,
    };
    const state = computeVisibility(funding, values, items);
    expect(isQuestionVisible(state, 'owner_guarantee_limit', 'ritem_o1')).toBe(true);
    expect(isQuestionVisible(state, 'owner_guarantee_limit', 'ritem_o2')).toBe(false);
    expect(isNameVisible(state, itemName('ritem_o2', 'owner_guarantee_limit', 'value'))).toBe(false);
  });
});

/** A contract whose nested group reads its parent item and the top level, and whose top level reads an item. */
function nestedContract(): FormContract {
  const vis = (schema_key: string, operator: 'equals' | 'answered' | 'not_answered', value?: unknown): Visibility => ({
    rule: 'conditional',
    match: 'all',
    conditions: [{ schema_key, field_key: 'value', operator, ...(value === undefined ? {} : { value }) }],
  });
  const q = (schema_key: string, block_key: string | null, order: number, visibility: Visibility = { rule: 'always' }): Question => ({
    block_key: block_key ?? schema_key,
    schema_key,
    section_key: 's',
    parent_block_key: block_key === 'child' ? 'parent' : null,
    kind: schema_key.endsWith('flag') ? 'yes_no' : 'text',
    label: schema_key,
    help_text: null,
    is_required: true,
    is_repeatable: block_key !== null,
    answer_shape: 'field',
    order,
    answer_operations: ['read', 'update'],
    visibility,
    fields: [
      {
        field_key: 'value',
        label: schema_key,
        help_text: null,
        is_required: true,
        value_schema: schema_key.endsWith('flag') ? { type: 'boolean' } : { type: 'string' },
        example: null,
      },
    ],
  });
  const group = (block_key: string, parent: string | null): RepeatableGroup => ({
    block_key,
    section_key: 's',
    parent_block_key: parent,
    min_items: null,
    max_items: null,
    item_question_keys: [],
    item_operations: ['list', 'create', 'update', 'delete'],
  });
  return {
    contract_version: 'nested-visibility',
    sections: [{ section_key: 's', label: 'S', order: 1 }],
    repeatable_groups: [group('parent', null), group('child', 'parent')],
    questions: [
      q('top_flag', null, 1),
      q('top_reads_item', null, 2, vis('parent_flag', 'not_answered')),
      q('parent_flag', 'parent', 3),
      q('parent_note', 'parent', 4, vis('child_flag', 'answered')),
      q('child_flag', 'child', 5),
      q('child_by_parent', 'child', 6, vis('parent_flag', 'equals', true)),
      q('child_by_top', 'child', 7, vis('top_flag', 'equals', true)),
      q('child_by_self', 'child', 8, vis('child_flag', 'equals', true)),
    ],
  };
}

describe('lookup order: same item, ancestors, then the top level (as the sandbox)', () => {
  const model = formModel(nestedContract());
  const items: FormItem[] = [
    { itemId: 'ritem_p1', blockKey: 'parent', parentItemId: null, order: 0 },
    { itemId: 'ritem_p2', blockKey: 'parent', parentItemId: null, order: 1 },
    { itemId: 'ritem_c1', blockKey: 'child', parentItemId: 'ritem_p1', order: 0 },
    { itemId: 'ritem_c2', blockKey: 'child', parentItemId: 'ritem_p2', order: 0 },
  ];
  const values: FormValues = {
    [answerName('top_flag', 'top_flag', 'value')]: true,
    [itemName('ritem_p1', 'parent_flag', 'value')]: true,
    [itemName('ritem_p2', 'parent_flag', 'value')]: false,
    [itemName('ritem_c1', 'child_flag', 'value')]: true,
    [itemName('ritem_c2', 'child_flag', 'value')]: null,
  };
  const state = computeVisibility(model, values, items);

  it('reads the parent item of a nested item', () => {
    expect(isQuestionVisible(state, 'child_by_parent', 'ritem_c1')).toBe(true);
    expect(isQuestionVisible(state, 'child_by_parent', 'ritem_c2')).toBe(false);
  });

  it('reads the top level from inside any item', () => {
    expect(isQuestionVisible(state, 'child_by_top', 'ritem_c1')).toBe(true);
    expect(isQuestionVisible(state, 'child_by_top', 'ritem_c2')).toBe(true);
  });

  it('reads its own item', () => {
    expect(isQuestionVisible(state, 'child_by_self', 'ritem_c1')).toBe(true);
    expect(isQuestionVisible(state, 'child_by_self', 'ritem_c2')).toBe(false);
  });

  it('never reads down into child items or from the top level into items: unanswered there', () => {
    // parent_note asks whether child_flag is answered: a parent item has no child item to look in.
    expect(isQuestionVisible(state, 'parent_note', 'ritem_p1')).toBe(false);
    // top_reads_item asks whether parent_flag is unanswered: from the top level it always is.
    expect(isQuestionVisible(state, 'top_reads_item', null)).toBe(true);
  });

  it('maps each field to the questions whose visibility reads it', () => {
    const map = dependencyMap(model);
    expect(map.get(fieldKeyOf('parent_flag', 'value'))?.map((q) => q.schemaKey)).toEqual(['top_reads_item', 'child_by_parent']);
    expect(map.get(fieldKeyOf('top_flag', 'value'))?.map((q) => q.schemaKey)).toEqual(['child_by_top']);
    expect(map.get(fieldKeyOf('child_by_top', 'value'))).toBeUndefined();
    expect(dependencyMap(model)).toBe(map);
  });

  it('limits dependents to the instances that can read the changed field', () => {
    const index = indexItems(items);
    expect(dependentsOf(model, index, itemName('ritem_p1', 'parent_flag', 'value'))).toEqual([
      { schemaKey: 'child_by_parent', itemId: 'ritem_c1' },
    ]);
    expect(dependentsOf(model, index, answerName('top_flag', 'top_flag', 'value'))).toEqual([
      { schemaKey: 'child_by_top', itemId: 'ritem_c1' },
      { schemaKey: 'child_by_top', itemId: 'ritem_c2' },
    ]);
    expect(dependentsOf(model, index, itemName('ritem_c2', 'child_flag', 'value'))).toEqual([
      { schemaKey: 'child_by_self', itemId: 'ritem_c2' },
    ]);
    expect(dependentsOf(model, index, answerName('child_by_top', 'child_by_top', 'value'))).toEqual([]);
  });
});

describe('updateVisibility', () => {
  it('re-checks only dependents, and keeps the same object when nothing changed', () => {
    const before = computeVisibility(funding, empty);
    const unrelated = withValues({ [top('legal_name')]: 'Meridian' });
    expect(updateVisibility(before, unrelated, [top('legal_name')])).toBe(before);
    const stillHidden = withValues({ [top('company_type')]: 'partnership' });
    expect(updateVisibility(before, stillHidden, [top('company_type')])).toBe(before);
    const shown = withValues({ [top('company_type')]: 'llc' });
    const after = updateVisibility(before, shown, [top('company_type')]);
    expect(after).not.toBe(before);
    expect(isQuestionVisible(after, 'registration_number', null)).toBe(true);
    expect(isQuestionVisible(before, 'registration_number', null)).toBe(false);
    const hiddenAgain = updateVisibility(after, empty, [top('company_type')]);
    expect(hiddenAgain.hidden).toEqual(before.hidden);
  });

  it('agrees with a full recomputation after any sequence of edits (large contract)', () => {
    const model = formModel(buildLargeContract());
    let values: FormValues = formStateFrom(model, []).values;
    let state = computeVisibility(model, values);
    const drivers = model.conditionalQuestions.flatMap((q) => q.dependsOn).map((d) => answerName(d.schema_key, d.schema_key, d.field_key));
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const choices = [null, '', 'text', true, false, ['option_b'], ['option_a']];
    for (let i = 0; i < 300; i++) {
      const name = drivers[Math.floor(random() * drivers.length)] as string;
      values = { ...values, [name]: choices[Math.floor(random() * choices.length)] ?? null };
      state = updateVisibility(state, values, [name]);
    }
    expect([...state.hidden].sort()).toEqual([...computeVisibility(model, values).hidden].sort());
  });

  it('works on values typed as text: "5" in a number field equals 5', () => {
    const contract: FormContract = {
      contract_version: 'typed-visibility',
      sections: [{ section_key: 's', label: 'S', order: 1 }],
      repeatable_groups: [],
      questions: [
        { ...nestedContract().questions[0]!, schema_key: 'n', block_key: 'n', kind: 'integer', fields: [{ field_key: 'value', label: 'n', help_text: null, is_required: false, value_schema: { type: 'integer' }, example: null }] },
        { ...nestedContract().questions[0]!, schema_key: 'd', block_key: 'd', order: 2, visibility: { rule: 'conditional', match: 'all', conditions: [{ schema_key: 'n', field_key: 'value', operator: 'equals', value: 5 }] } },
      ],
    };
    const model = formModel(contract);
    expect(isQuestionVisible(computeVisibility(model, { 'a.n.n.value': '5' }), 'd', null)).toBe(true);
    expect(isQuestionVisible(computeVisibility(model, { 'a.n.n.value': '6' }), 'd', null)).toBe(false);
  });
});
