import { describe, expect, it } from 'vitest';
import { answersCopy, fieldOf, formModel, recordedValueText } from '@/lib/forms';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';

/* The copy of the answers the client reads on their confirmation. */

const contract = buildFundingContract();
const a = (schema_key: string, value: string | boolean | null, field_key = 'value') => ({ block_key: schema_key, schema_key, field_key, value });

describe('a copy of the answers', () => {
  it('lists the visible answered questions by section, choices by label, files by name, items nested', () => {
    const copy = answersCopy({
      contract,
      answers: [
        a('legal_name', 'Harbour Street Hospitality Ltd'),
        a('company_type', 'llp'),
        a('registration_number', 'OC123456'),
        a('can_offer_collateral', true),
        a('business_address', 'GB', 'country'),
        a('trading_name', null),
      ],
      items: [{ item_id: 'ritem_1', block_key: 'owners', parent_item_id: null, order: 0, answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Luca Fontana' }] as never }],
      files: [],
    });
    const business = copy.find((s) => s.label === 'Business details')!;
    expect(business.rows).toEqual([
      { label: 'Legal business name', value: 'Harbour Street Hospitality Ltd' },
      { label: 'Type of business', value: 'LLP' },
      { label: 'Company registration number', value: 'OC123456' },
      { label: 'Registered or trading address – Country', value: 'United Kingdom' },
    ]);
    expect(copy.find((s) => s.label === 'Funding request')?.rows).toContainEqual({ label: 'Can you offer security for the funding?', value: 'Yes' });
    const owners = copy.find((s) => s.groups.length > 0)!.groups[0]!;
    expect(owners.items[0]).toMatchObject({ label: 'Owners 1', rows: [{ label: 'Full name', value: 'Luca Fontana' }] });
    // Sections with nothing answered are left out.
    expect(copy.map((s) => s.label)).not.toContain('Declarations');
  });

  it('leaves out an answer whose question is hidden now', () => {
    const copy = answersCopy({ contract, answers: [a('company_type', 'sole_trader'), a('registration_number', 'OC123456')], items: [], files: [] });
    expect(copy[0]!.rows.map((r) => r.label)).toEqual(['Type of business']);
  });

  it('for the funder, marks required questions left empty, but never a hidden one', () => {
    const copy = answersCopy({ contract, answers: [a('company_type', 'sole_trader')], items: [], files: [], markMissing: true });
    const business = copy.find((s) => s.label === 'Business details')!;
    expect(business.rows[0]).toEqual({ label: 'Legal business name', value: '', missing: true });
    expect(business.rows).toContainEqual({ label: 'Type of business', value: 'Sole trader' });
    // Optional and hidden questions are not listed as missing.
    expect(business.rows.map((r) => r.label)).not.toContain('Trading name');
    expect(business.rows.map((r) => r.label)).not.toContain('Company registration number');
    // The client's copy is unchanged: only what was answered.
    expect(answersCopy({ contract, answers: [a('company_type', 'sole_trader')], items: [], files: [] })[0]!.rows).toHaveLength(1);
  });

  it('writes dates in the caller’s format and groups amounts, as a person reads them', () => {
    const dated = contract.questions.find((q) => q.fields.some((f) => f.value_schema && (f.value_schema as { format?: string }).format === 'date'));
    const amount = contract.questions.find((q) => /amount/i.test(q.schema_key) && q.fields.length === 1);
    expect(dated && amount, 'the demo contract has a date and an amount question').toBeTruthy();
    const copy = answersCopy({
      contract,
      answers: [
        { block_key: dated!.block_key, schema_key: dated!.schema_key, field_key: dated!.fields[0]!.field_key, value: '2016-04-01' },
        { block_key: amount!.block_key, schema_key: amount!.schema_key, field_key: 'value', value: 250000.5 },
      ],
      items: [],
      files: [],
      calendarDate: (date) => `the day ${date}`,
    });
    const rows = copy.flatMap((s) => s.rows);
    expect(rows).toContainEqual({ label: dated!.label, value: 'the day 2016-04-01' });
    expect(rows).toContainEqual({ label: amount!.label, value: '250,000.50' });
  });
});

describe('a recorded value as a person reads it', () => {
  const model = formModel(contract);
  it('follows the form: option labels, Yes/No, (empty)', () => {
    expect(recordedValueText(fieldOf(model, 'company_type', 'value'), 'llp')).toBe('LLP');
    expect(recordedValueText(fieldOf(model, 'can_offer_collateral', 'value'), true)).toBe('Yes');
    expect(recordedValueText(fieldOf(model, 'legal_name', 'value'), null)).toBe('(empty)');
  });
  it('still reads a value whose field the contract no longer has', () => {
    expect(recordedValueText(undefined, ['a', true, 3])).toBe('a, Yes, 3');
    expect(recordedValueText(undefined, '')).toBe('(empty)');
    expect(recordedValueText(undefined, { x: 1 })).toBe('{"x":1}');
  });
});
