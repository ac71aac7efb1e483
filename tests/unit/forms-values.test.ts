import { describe, expect, it } from 'vitest';
import {
  checkField,
  equalityFor,
  formatNumberInput,
  formModel,
  formStateFrom,
  itemName,
  nestValues,
  isInexactNumberInput,
  parseNumberInput,
  sameAnswer,
  toAnswerValue,
  toInputValue,
  valuesEqual,
  writesFor,
  type FormContract,
} from '@/lib/forms';
import type { AnswerItem, ValueSchema } from '@/lib/portal';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { field, funding } from './support/funding-form';


/** An answer item as spec 2.10 has it; only the keys and the value matter to the form. */
const answer = (block_key: string, schema_key: string, field_key: string, value: AnswerItem['value']): AnswerItem => ({
  section_key: 's',
  section_label: 'S',
  block_key,
  block_label: 'B',
  schema_key,
  field_key,
  field_label: 'F',
  value_type: 'string',
  is_required: false,
  allowed_values: [],
  value,
});

describe('numbers as people type them', () => {
  it.each([
    ['1,234.50', 1234.5],
    ['1234.5', 1234.5],
    ['  12 ', 12],
    ['-3', -3],
    ['\u22123', -3],
    ['+7', 7],
    ['.5', 0.5],
    ['12.', 12],
    ['£250,000', 250_000],
    ['$1,000,000.25', 1_000_000.25],
    ['12.5%', 12.5],
    ['1 000', 1000],
    ['1e3', 1000],
    ['-0', 0],
  ])('%j → %j', (text, n) => {
    expect(parseNumberInput(text)).toBe(n);
  });

  it.each(['', 'abc', '12abc', '1,23', '1.234,50', '1,2345', '--1', '.', 'Infinity', '0x10'])('%j is not a number', (text) => {
    expect(parseNumberInput(text)).toBeUndefined();
  });

  it.each(['123456789012345678901234567890', '0.12345678901234567891', '9007199254740993', '1e400'])(
    '%j reads as no number: a double would round it, so it is kept as typed',
    (text) => {
      expect(parseNumberInput(text)).toBeUndefined();
      expect(isInexactNumberInput(text)).toBe(true);
    },
  );

  it('keeps a long number exactly as text where value_schema allows strings', () => {
    const open = formModel(stringOrNumberContract());
    expect(field(open, 'amount').widget).toBe('text');
    expect(toAnswerValue(field(open, 'amount'), '123456789012345678901234567890')).toBe('123456789012345678901234567890');
    expect(checkField(field(open, 'amount'), '123456789012345678901234567890')).toBeNull();
  });

  it('keeps long numbers that a double holds exactly', () => {
    expect(parseNumberInput('0.30000000000000004')).toBe(0.1 + 0.2);
    expect(parseNumberInput('9007199254740992')).toBe(2 ** 53);
    expect(parseNumberInput('1,000,000,000,000,000,000,000')).toBe(1e21);
    expect(isInexactNumberInput('12abc')).toBe(false);
  });

  it('formats so that parsing gives the same number back', () => {
    expect(formatNumberInput(1_850_000, 'currency')).toBe('1,850,000');
    expect(formatNumberInput(15_250.5, 'currency')).toBe('15,250.50');
    expect(formatNumberInput(-2_750.25, 'currency')).toBe('-2,750.25');
    expect(formatNumberInput(2016, 'integer')).toBe('2016');
    expect(formatNumberInput(0.1 + 0.2, 'number')).toBe('0.30000000000000004');
    for (const n of [0, 1, -1, 0.1, 1234.5, 1e21, 123_456_789.01, -0.000001]) {
      for (const widget of ['currency', 'number']) expect(parseNumberInput(formatNumberInput(n, widget))).toBe(n);
    }
  });
});

describe('toAnswerValue: inputs to answer values by value_schema', () => {
  it('numbers: parsed; empty is null; what does not parse stays as typed for the validator', () => {
    const amount = field(funding, 'funding_amount');
    expect(toAnswerValue(amount, '1,234.50')).toBe(1234.5);
    expect(toAnswerValue(amount, '')).toBeNull();
    expect(toAnswerValue(amount, '   ')).toBeNull();
    expect(toAnswerValue(amount, '12abc')).toBe('12abc');
    expect(toAnswerValue(amount, 99)).toBe(99);
    expect(toAnswerValue(field(funding, 'employee_count'), '24')).toBe(24);
    expect(toAnswerValue(field(funding, 'employee_count'), '2.5')).toBe(2.5);
  });

  it('booleans: yes/no pairs keep false; a declaration unticked is unanswered', () => {
    const yesNo = field(funding, 'can_offer_collateral');
    expect(toAnswerValue(yesNo, true)).toBe(true);
    expect(toAnswerValue(yesNo, false)).toBe(false);
    expect(toAnswerValue(yesNo, null)).toBeNull();
    expect(toAnswerValue(yesNo, 'yes')).toBe(true);
    expect(toAnswerValue(yesNo, 'false')).toBe(false);
    expect(toAnswerValue(yesNo, '')).toBeNull();
    const declaration = field(funding, 'decl_accurate');
    expect(toAnswerValue(declaration, true)).toBe(true);
    expect(toAnswerValue(declaration, false)).toBeNull();
  });

  it('single choice: the option value back to its enum value; empty is null', () => {
    const type = field(funding, 'company_type');
    expect(toAnswerValue(type, 'llp')).toBe('llp');
    expect(toAnswerValue(type, '')).toBeNull();
    expect(toAnswerValue(type, 'not_an_option')).toBe('not_an_option');
  });

  it('multi choice: arrays in option order, each once; none chosen is null', () => {
    const purpose = field(funding, 'funding_purpose');
    expect(toAnswerValue(purpose, ['other', 'working_capital', 'other'])).toEqual(['working_capital', 'other']);
    expect(toAnswerValue(purpose, [])).toBeNull();
    expect(toAnswerValue(purpose, 'equipment')).toEqual(['equipment']);
    expect(toAnswerValue(purpose, ['equipment', 'mystery'])).toEqual(['equipment', 'mystery']);
  });

  it('dates, emails and urls are trimmed; free text is kept as typed', () => {
    expect(toAnswerValue(field(funding, 'date_established'), ' 2016-04-01 ')).toBe('2016-04-01');
    expect(toAnswerValue(field(funding, 'contact_email'), ' a@b.example ')).toBe('a@b.example');
    expect(toAnswerValue(field(funding, 'legal_name'), 'New ')).toBe('New ');
    expect(toAnswerValue(field(funding, 'legal_name'), '   ')).toBeNull();
    expect(toAnswerValue(field(funding, 'legal_name'), undefined)).toBeNull();
  });

  it('files: the list of file ids, null when empty', () => {
    const files = field(funding, 'bank_statements', 'files');
    expect(toAnswerValue(files, ['afile_1'])).toEqual(['afile_1']);
    expect(toAnswerValue(files, [])).toBeNull();
  });

  it('lists without choices: one item per line, typed by items', () => {
    const model = formModel(listContract());
    expect(toAnswerValue(field(model, 'tags'), 'alpha\n\n beta \r\ngamma')).toEqual(['alpha', 'beta', 'gamma']);
    expect(toAnswerValue(field(model, 'scores'), '1\n2,000\nx')).toEqual([1, 2000, 'x']);
    expect(toAnswerValue(field(model, 'tags'), '\n  \n')).toBeNull();
    // A number a double would round stays as typed, and the check says why rather than "Must be a number".
    expect(toAnswerValue(field(model, 'scores'), '1\n12345678901234567890')).toEqual([1, '12345678901234567890']);
    expect(checkField(field(model, 'scores'), '1\n12345678901234567890')).toBe(
      'Item 2: Has more digits than can be kept exactly: use at most 15 significant digits',
    );
    expect(toInputValue(field(model, 'tags'), ['alpha', 'beta'])).toBe('alpha\nbeta');
  });
});

function listContract(): FormContract {
  const q = (schema_key: string, items: NonNullable<ValueSchema['items']>) => ({
    block_key: schema_key,
    schema_key,
    section_key: 's',
    parent_block_key: null,
    kind: 'list',
    label: schema_key,
    help_text: null,
    is_required: false,
    is_repeatable: false,
    answer_shape: 'field' as const,
    order: 1,
    answer_operations: ['read' as const, 'update' as const],
    visibility: { rule: 'always' as const },
    fields: [{ field_key: 'value', label: 'v', help_text: null, is_required: false, value_schema: { type: 'array' as const, items }, example: null }],
  });
  return {
    contract_version: 'lists',
    sections: [{ section_key: 's', label: 'S', order: 1 }],
    repeatable_groups: [],
    questions: [q('tags', { type: 'string' }), q('scores', { type: 'number' })],
  };
}

/** A currency question whose value_schema also takes strings: the form keeps what was typed, exactly. */
function stringOrNumberContract(): FormContract {
  const contract = listContract();
  const [question] = contract.questions;
  return {
    ...contract,
    questions: [
      {
        ...question!,
        block_key: 'amount',
        schema_key: 'amount',
        kind: 'currency',
        fields: [{ ...question!.fields[0]!, value_schema: { type: ['string', 'number'] } }],
      },
    ],
  };
}

describe('toInputValue: answer values to what inputs hold', () => {
  it('gives each widget its empty input', () => {
    expect(toInputValue(field(funding, 'legal_name'), null)).toBe('');
    expect(toInputValue(field(funding, 'funding_amount'), null)).toBe('');
    expect(toInputValue(field(funding, 'can_offer_collateral'), null)).toBeNull();
    expect(toInputValue(field(funding, 'decl_accurate'), null)).toBe(false);
    expect(toInputValue(field(funding, 'funding_purpose'), null)).toEqual([]);
    expect(toInputValue(field(funding, 'bank_statements', 'files'), null)).toEqual([]);
    expect(toInputValue(field(funding, 'company_type'), null)).toBe('');
  });

  it('formats numbers for their widget', () => {
    expect(toInputValue(field(funding, 'funding_amount'), 250_000.5)).toBe('250,000.50');
    expect(toInputValue(field(funding, 'employee_count'), 2016)).toBe('2016');
    expect(toInputValue(field(funding, 'gross_margin'), 38.5)).toBe('38.5');
  });

  it('round-trips every example of the funding contract', () => {
    for (const f of funding.fieldById.values()) {
      const example = buildFundingContract().questions.find((q) => q.schema_key === f.schemaKey)?.fields.find(
        (x) => x.field_key === f.fieldKey,
      )?.example as AnswerItem['value'] | undefined;
      if (example === undefined || example === null || f.widget === 'file') continue;
      const back = toAnswerValue(f, toInputValue(f, example));
      // Field-aware: the example lists chosen options in its own order, the form in the options' order.
      expect(sameAnswer(f, back, example), `${f.schemaKey}.${f.fieldKey}`).toBe(true);
    }
  });
});

describe('equality', () => {
  it('structural: empties are equal, lists in order, numbers equal the text they parse from', () => {
    expect(valuesEqual(null, '')).toBe(true);
    expect(valuesEqual(undefined, [])).toBe(true);
    expect(valuesEqual('  ', null)).toBe(true);
    expect(valuesEqual(0, null)).toBe(false);
    expect(valuesEqual(false, null)).toBe(false);
    expect(valuesEqual(1234.5, '1,234.50')).toBe(true);
    expect(valuesEqual('1,234.50', 1234.5)).toBe(true);
    expect(valuesEqual('1,000', '1000')).toBe(false);
    expect(valuesEqual(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(valuesEqual(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(valuesEqual(['a'], 'a')).toBe(false);
    expect(valuesEqual(true, 'true')).toBe(false);
  });

  it('per field: by answer value, so option order and formatting do not matter', () => {
    expect(sameAnswer(field(funding, 'funding_purpose'), ['other', 'equipment'], ['equipment', 'other'])).toBe(true);
    expect(sameAnswer(field(funding, 'decl_accurate'), false, null)).toBe(true);
    expect(sameAnswer(field(funding, 'can_offer_collateral'), false, null)).toBe(false);
    const equal = equalityFor(funding);
    expect(equal('a.funding_amount.funding_amount.value', '250,000.00', 250_000)).toBe(true);
    expect(equal('a.unknown.unknown.value', 'x', 'x')).toBe(true);
  });
});

describe('answers and items to form values', () => {
  const answers = [
    answer('legal_name', 'legal_name', 'value', 'Meridian Engineering Ltd'),
    answer('funding_amount', 'funding_amount', 'value', 250_000),
    answer('funding_purpose', 'funding_purpose', 'value', ['equipment']),
    answer('business_address', 'business_address', 'city', 'Leeds'),
    answer('gone_question', 'gone_question', 'value', 'kept anyway'),
  ];
  const items = [
    {
      item_id: 'ritem_o1',
      block_key: 'owners',
      parent_item_id: null,
      order: 0,
      answers: [answer('owners', 'owner_full_name', 'value', 'Alex Morgan'), answer('owners', 'owner_ownership_pct', 'value', 60)],
    },
    {
      item_id: 'ritem_a1',
      block_key: 'owner_addresses',
      parent_item_id: 'ritem_o1',
      order: 0,
      answers: [answer('owner_addresses', 'owner_years_at_address', 'value', 4)],
    },
  ];

  it('gives every top-level field and every item field a value, converted for its input', () => {
    const { values, items: formItems } = formStateFrom(funding, answers, items);
    expect(values['a.legal_name.legal_name.value']).toBe('Meridian Engineering Ltd');
    expect(values['a.funding_amount.funding_amount.value']).toBe('250,000');
    expect(values['a.funding_purpose.funding_purpose.value']).toEqual(['equipment']);
    expect(values['a.business_address.business_address.city']).toBe('Leeds');
    expect(values['a.business_address.business_address.line1']).toBe('');
    expect(values['a.can_offer_collateral.can_offer_collateral.value']).toBeNull();
    // An answer the contract no longer has is kept, not dropped.
    expect(values['a.gone_question.gone_question.value']).toBe('kept anyway');
    expect(values[itemName('ritem_o1', 'owner_full_name', 'value')]).toBe('Alex Morgan');
    expect(values[itemName('ritem_o1', 'owner_ownership_pct', 'value')]).toBe('60');
    expect(values[itemName('ritem_o1', 'owner_email', 'value')]).toBe('');
    expect(values[itemName('ritem_a1', 'owner_years_at_address', 'value')]).toBe('4');
    expect(values[itemName('ritem_a1', 'owner_address', 'postal_code')]).toBe('');
    expect(Object.keys(values).filter((n) => n.startsWith('a.'))).toHaveLength(funding.topFields.length + 1);
    expect(formItems).toEqual([
      { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
      { itemId: 'ritem_a1', blockKey: 'owner_addresses', parentItemId: 'ritem_o1', order: 0 },
    ]);
  });
});

describe('writesFor: edits to request bodies', () => {
  it('splits top-level answers from per-item answers, converting values and skipping files', () => {
    const writes = writesFor(funding, {
      'a.funding_amount.funding_amount.value': '1,234.50',
      'a.legal_name.legal_name.value': '',
      'a.bank_statements.bank_statements.files': ['afile_1'],
      [itemName('ritem_o1', 'owner_ownership_pct', 'value')]: '60',
      [itemName('ritem_o1', 'owner_is_guarantor', 'value')]: true,
      [itemName('ritem_a1', 'owner_address', 'city')]: 'Leeds',
      'nonsense': 'x',
    });
    expect(writes.answers).toEqual([
      { block_key: 'funding_amount', schema_key: 'funding_amount', field_key: 'value', value: 1234.5 },
      { block_key: 'legal_name', schema_key: 'legal_name', field_key: 'value', value: null },
    ]);
    expect(Object.fromEntries(writes.items)).toEqual({
      ritem_o1: [
        { schema_key: 'owner_ownership_pct', field_key: 'value', value: 60 },
        { schema_key: 'owner_is_guarantor', field_key: 'value', value: true },
      ],
      ritem_a1: [{ schema_key: 'owner_address', field_key: 'city', value: 'Leeds' }],
    });
    expect(writes.skipped).toEqual(['a.bank_statements.bank_statements.files', 'nonsense']);
  });
});

describe('nested values for form libraries that read dotted names as paths', () => {
  it('nests flat values, leaving list values whole', () => {
    const flat = {
      'a.legal_name.legal_name.value': 'Meridian',
      'a.funding_purpose.funding_purpose.value': ['equipment', 'other'],
      [itemName('ritem_1', 'owner_is_guarantor', 'value')]: true,
      'a.b%2E1.q.value': 'escaped dot',
    };
    const nested = nestValues(flat);
    expect(nested).toEqual({
      a: {
        legal_name: { legal_name: { value: 'Meridian' } },
        funding_purpose: { funding_purpose: { value: ['equipment', 'other'] } },
        'b%2E1': { q: { value: 'escaped dot' } },
      },
      i: { ritem_1: { owner_is_guarantor: { value: true } } },
    });
  });
});
