import { describe, expect, it } from 'vitest';
import {
  computeVisibility,
  formModel,
  formStateFrom,
  formValidator,
  groupName,
  itemName,
  sendableCheck,
  type FormItem,
  type FormValues,
} from '@/lib/forms';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { buildLargeContract, largeContractSeedAnswers } from '@/server/sandbox/seed/large-contract';
import { funding, top } from './support/funding-form';

const validator = formValidator(funding);
const check = (name: string, value: FormValues[string] | undefined) => validator.validateField(name, value, true);

describe('validateField', () => {
  it('is built once per model', () => {
    expect(formValidator(funding)).toBe(validator);
  });

  it('requires an answer only while the question is visible', () => {
    expect(check(top('legal_name'), '')).toBe('This field is required');
    expect(check(top('legal_name'), '   ')).toBe('This field is required');
    expect(validator.validateField(top('legal_name'), '', false)).toBeNull();
    expect(check(top('trading_name'), '')).toBeNull();
  });

  it('words the required message for the widget', () => {
    expect(check(top('company_type'), '')).toBe('Choose an option');
    expect(check(top('funding_purpose'), [])).toBe('Choose at least one option');
    expect(check(top('can_offer_collateral'), null)).toBe('Choose yes or no');
    expect(check(top('decl_accurate'), false)).toBe('Tick the box to confirm');
  });

  it('checks value_schema through lib/contract, on the converted value', () => {
    expect(check(top('legal_name'), 'M')).toBe('Must be at least 2 characters');
    expect(check(top('contact_email'), 'not-an-email')).toBe('Enter a valid email address');
    expect(check(top('contact_email'), ' alex@meridian.example ')).toBeNull();
    expect(check(top('website'), 'meridian.example')).toBe('Enter a valid web address starting with http:// or https://');
    expect(check(top('date_established'), '2023-02-30')).toBe('Enter a valid date (YYYY-MM-DD)');
    expect(check(top('contact_phone'), 'call me')).toBe('Enter a value in the expected format');
    expect(check(top('business_address', 'country'), 'gb')).toBe('Enter a value in the expected format');
  });

  it('parses numbers as typed, and says what is wrong with what does not parse', () => {
    expect(check(top('funding_amount'), '1,234.50')).toBeNull();
    expect(check(top('funding_amount'), '1,234.505')).toBe('Use at most 2 decimal places');
    expect(check(top('funding_amount'), '60,000,000')).toBe('Must be 50,000,000 or less');
    expect(check(top('funding_amount'), '-5')).toBe('Must be 0 or more');
    expect(check(top('funding_amount'), '12abc')).toBe('Must be a number');
    expect(check(top('employee_count'), '2.5')).toBe('Must be a whole number');
    expect(check(top('employee_count'), '1,200')).toBeNull();
  });

  it('refuses a number a double would round, and one beyond 2^53, rather than saving another number', () => {
    const inexact = 'Has more digits than can be kept exactly: use at most 15 significant digits';
    expect(check(top('funding_amount'), '123456789012345678901234567890')).toBe(inexact);
    expect(check(top('funding_amount'), '0.12345678901234567891')).toBe(inexact);
    expect(check(top('employee_count'), '9007199254740993')).toBe(inexact);
    expect(check(top('employee_count'), '9,007,199,254,740,992')).toBe(
      'Too large to be kept exactly: use a number between −9,007,199,254,740,991 and 9,007,199,254,740,991',
    );
    expect(sendableCheck(funding)(top('funding_amount'), '123456789012345678901234567890')).toBe(false);
  });

  it('checks choices', () => {
    expect(check(top('company_type'), 'llp')).toBeNull();
    expect(check(top('company_type'), 'pirate_ship')).toBe('Choose one of the listed options');
    expect(check(top('funding_purpose'), ['equipment', 'yacht'])).toBe('Item 2: Choose one of the listed options');
  });

  it('applies the spec limits whatever the schema says', () => {
    expect(check(top('business_description'), 'x'.repeat(10_001))).toBe('Must be at most 10,000 characters');
    expect(check(top('business_description'), 'x'.repeat(10_000))).toBeNull();
  });

  it('checks fields inside items by their item name', () => {
    expect(check(itemName('ritem_1', 'owner_ownership_pct', 'value'), '101')).toBe('Must be 100 or less');
    expect(check(itemName('ritem_1', 'owner_email', 'value'), '')).toBe('This field is required');
  });

  it('ignores names it does not know', () => {
    expect(check('a.nope.nope.value', '')).toBeNull();
    expect(check('rubbish', 'x')).toBeNull();
  });
});

describe('validateAll', () => {
  const items: FormItem[] = [
    { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
    { itemId: 'ritem_a1', blockKey: 'owner_addresses', parentItemId: 'ritem_o1', order: 0 },
  ];

  it('reports every visible problem by name, skipping hidden questions', () => {
    const { values } = formStateFrom(funding, []);
    const errors = validator.validateAll(values, computeVisibility(funding, values));
    expect(errors[top('legal_name')]).toBe('This field is required');
    expect(errors[top('business_address', 'line1')]).toBe('This field is required');
    expect(errors[top('business_address', 'line2')]).toBeUndefined();
    // Hidden until the company type says it is incorporated.
    expect(errors[top('registration_number')]).toBeUndefined();
    // Optional.
    expect(errors[top('trading_name')]).toBeUndefined();
    expect(errors[top('bank_statements', 'files')]).toBeUndefined();
  });

  it('checks the fields of every item, and each group count per parent', () => {
    const values: FormValues = {
      ...formStateFrom(funding, []).values,
      [top('company_type')]: 'llc',
      [itemName('ritem_o1', 'owner_full_name', 'value')]: 'Alex Morgan',
      [itemName('ritem_o1', 'owner_is_guarantor', 'value')]: false,
      [itemName('ritem_a1', 'owner_years_at_address', 'value')]: '4.5',
    };
    const errors = validator.validateAll(values, computeVisibility(funding, values, items));
    expect(errors[top('registration_number')]).toBe('This field is required');
    expect(errors[itemName('ritem_o1', 'owner_full_name', 'value')]).toBeUndefined();
    expect(errors[itemName('ritem_o1', 'owner_email', 'value')]).toBe('This field is required');
    expect(errors[itemName('ritem_o1', 'owner_guarantee_limit', 'value')]).toBeUndefined();
    expect(errors[itemName('ritem_a1', 'owner_years_at_address', 'value')]).toBe('Must be a whole number');
    expect(errors[itemName('ritem_a1', 'owner_address', 'line1')]).toBe('This field is required');
    // One owner is enough; no addresses are required.
    expect(errors[groupName('owners', null)]).toBeUndefined();
    expect(errors[groupName('owner_addresses', 'ritem_o1')]).toBeUndefined();
  });

  it('reports min_items and max_items per parent', () => {
    const none = formStateFrom(funding, []).values;
    expect(validator.validateAll(none, computeVisibility(funding, none))[groupName('owners', null)]).toBe('Add at least 1 item');
    const many: FormItem[] = [
      { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
      ...[1, 2, 3, 4].map((n) => ({ itemId: `ritem_a${n}`, blockKey: 'owner_addresses', parentItemId: 'ritem_o1', order: n })),
    ];
    const errors = validator.validateAll(none, computeVisibility(funding, none, many));
    expect(errors[groupName('owner_addresses', 'ritem_o1')]).toBe('Remove items: at most 3 items are allowed');
    expect(errors[groupName('owners', null)]).toBeUndefined();
  });

  it('passes a complete application', () => {
    const contract = buildFundingContract();
    const answers = contract.questions
      .filter((q) => !q.is_repeatable && q.answer_shape !== 'file')
      .flatMap((q) => q.fields.map((f) => ({ block_key: q.block_key, schema_key: q.schema_key, field_key: f.field_key, value: f.example as never })));
    const item = (item_id: string, block_key: string, parent: string | null) => ({
      item_id,
      block_key,
      parent_item_id: parent,
      order: 0,
      answers: contract.questions
        .filter((q) => q.block_key === block_key && q.answer_shape !== 'file')
        .flatMap((q) => q.fields.map((f) => ({ schema_key: q.schema_key, field_key: f.field_key, value: f.example as never }))),
    });
    const state = formStateFrom(funding, answers, [item('ritem_o1', 'owners', null), item('ritem_a1', 'owner_addresses', 'ritem_o1')]);
    expect(validator.validateAll(state.values, computeVisibility(funding, state.values, state.items))).toEqual({});
  });
});

describe('sendableCheck: what autosave may send', () => {
  const sendable = sendableCheck(funding);
  it('sends valid values and clearings, holds invalid ones, never sends files', () => {
    expect(sendable(top('funding_amount'), '1,234.50')).toBe(true);
    expect(sendable(top('legal_name'), '')).toBe(true);
    expect(sendable(top('funding_amount'), '12abc')).toBe(false);
    expect(sendable(top('bank_statements', 'files'), ['afile_1'])).toBe(false);
    expect(sendable('a.nope.nope.value', 'x')).toBe(false);
  });
});

describe('speed on the large contract (1,000+ fields)', () => {
  const contract = buildLargeContract();
  const model = formModel(contract);
  const large = formValidator(model);
  const seeded = largeContractSeedAnswers(contract, 45);
  const state = formStateFrom(
    model,
    seeded.answers,
    seeded.items.map((item, i) => ({ item_id: `ritem_l${i}`, block_key: item.block_key, parent_item_id: null, order: i, answers: item.answers })),
  );

  /**
   * The median CPU time of a body, in ms. CPU time rather than wall time: test files run in parallel,
   * and on a busy machine the wall clock measures the neighbours, not this code.
   */
  const medianCpuMs = (runs: number, body: () => void): number => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = process.cpuUsage();
      body();
      const used = process.cpuUsage(started);
      times.push((used.user + used.system) / 1_000);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] as number;
  };

  it('validates everything in well under 10 ms', () => {
    const visibility = computeVisibility(model, state.values, state.items);
    for (let i = 0; i < 5; i++) large.validateAll(state.values, visibility); // compile validators, warm the JIT
    expect(model.fieldById.size).toBeGreaterThanOrEqual(1_000);
    expect(medianCpuMs(31, () => large.validateAll(state.values, visibility))).toBeLessThan(10);
  });

  it('validates one field per keystroke in microseconds', () => {
    const name = model.topFields.find((f) => f.widget === 'currency')?.name as string;
    const calls = 1_000;
    for (let i = 0; i < calls; i++) large.validateField(name, `${i},250.5`, true);
    const perBatch = medianCpuMs(21, () => {
      for (let i = 0; i < calls; i++) large.validateField(name, `${i},250.5`, true);
    });
    // Generous for slow machines: 50 µs a call, where a keystroke's budget is ~16 ms.
    expect(perBatch / calls).toBeLessThan(0.05);
  });
});
