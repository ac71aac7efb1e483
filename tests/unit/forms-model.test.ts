import { describe, expect, it } from 'vitest';
import { oneFieldQuestion } from './support/one-field-question';
import {
  answerName,
  escapeSegment,
  fieldForName,
  formModel,
  groupName,
  htmlPattern,
  humanize,
  itemName,
  parseName,
  type FormContract,
} from '@/lib/forms';
import type { Question, QuestionField, RepeatableGroup } from '@/lib/portal';
import { buildCriteriaContract } from '@/server/sandbox/seed/criteria-contract';
import { buildDealContract } from '@/server/sandbox/seed/deal-contract';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';
import { buildLargeContract } from '@/server/sandbox/seed/large-contract';
import { field, funding } from './support/funding-form';


describe('sections and display order', () => {
  it('lists sections in order, with questions and groups in display order', () => {
    expect(funding.sections.map((s) => s.sectionKey)).toEqual([
      'business',
      'contact',
      'funding',
      'financials',
      'owners',
      'assets',
      'declarations',
    ]);
    const business = funding.sections[0];
    expect(business?.label).toBe('Business details');
    expect(business?.entries.map((e) => (e.type === 'question' ? e.question.schemaKey : e.group.blockKey))).toEqual([
      'legal_name',
      'trading_name',
      'company_type',
      'registration_number',
      'date_established',
      'industry',
      'employee_count',
      'website',
      'online_presence_url',
      'business_address',
      'business_description',
    ]);
    expect(funding.sections[4]?.entries.map((e) => e.type)).toEqual(['group']);
  });

  it('sorts by `order`, not by the order questions arrive in', () => {
    const contract = buildFundingContract();
    const shuffled: FormContract = {
      ...contract,
      sections: [...contract.sections].reverse(),
      questions: [...contract.questions].reverse(),
    };
    const model = formModel(shuffled);
    expect(model.sections.map((s) => s.sectionKey)).toEqual(funding.sections.map((s) => s.sectionKey));
    expect(model.topFields.map((f) => f.name)).toEqual(funding.topFields.map((f) => f.name));
  });

  it('is compiled once per contract object', () => {
    const contract = buildFundingContract();
    expect(formModel(contract)).toBe(formModel(contract));
    expect(formModel(buildFundingContract())).not.toBe(formModel(contract));
  });
});

describe('widgets by kind, with their attributes', () => {
  it.each([
    ['legal_name', 'text'],
    ['business_description', 'textarea'],
    ['contact_email', 'email'],
    ['contact_phone', 'tel'],
    ['website', 'url'],
    ['employee_count', 'integer'],
    ['net_profit', 'number'],
    ['funding_amount', 'currency'],
    ['gross_margin', 'percent'],
    ['date_established', 'date'],
    ['can_offer_collateral', 'yes-no'],
    ['decl_accurate', 'checkbox'],
    ['preferred_contact', 'radio'],
    ['company_type', 'select'],
    ['funding_purpose', 'checkbox-group'],
  ])('%s gets %s', (schemaKey, widget) => {
    expect(field(funding, schemaKey).widget).toBe(widget);
  });

  it('gives file questions a file widget, multiple from maxItems', () => {
    const statements = field(funding, 'bank_statements', 'files');
    expect(statements.widget).toBe('file');
    expect(statements.attributes).toEqual({ multiple: true });
    expect(statements.maxFiles).toBe(10);
    const accounts = field(funding, 'annual_accounts', 'files');
    expect(accounts.attributes).toEqual({ multiple: false });
    expect(accounts.maxFiles).toBe(1);
    expect(accounts.readOnly).toBe(false);
    expect(accounts.question.canUpload).toBe(true);
    expect(accounts.question.canUpdate).toBe(false);
  });

  it('text: lengths from value_schema, autocomplete from the key', () => {
    // No maxlength attribute: it would cut typing and pastes silently; the limit feeds a live counter instead.
    expect(field(funding, 'legal_name').attributes).toEqual({
      type: 'text',
      minLength: 2,
      autoComplete: 'organization',
    });
    expect(field(funding, 'legal_name').textLimit).toEqual({ max: 255, units: 'code-points' });
    expect(field(funding, 'contact_name').attributes.autoComplete).toBe('name');
    expect(field(funding, 'contact_role').attributes.autoComplete).toBe('organization-title');
    expect(field(funding, 'business_description').attributes).toEqual({});
    expect(field(funding, 'business_description').textLimit).toEqual({ max: 10_000, units: 'utf16' });
    expect(field(funding, 'employee_count').textLimit).toBeNull();
    // No hint is better than a wrong one.
    expect(field(funding, 'asset_description').attributes.autoComplete).toBeUndefined();
  });

  it('email, tel and url: input types, keyboards and autocomplete', () => {
    expect(field(funding, 'contact_email').attributes).toMatchObject({
      type: 'email',
      inputMode: 'email',
      autoComplete: 'email',
      spellCheck: false,
    });
    expect(field(funding, 'contact_email').textLimit).toEqual({ max: 255, units: 'code-points' });
    expect(field(funding, 'contact_phone').attributes).toMatchObject({ type: 'tel', inputMode: 'tel', autoComplete: 'tel' });
    expect(field(funding, 'website').attributes).toMatchObject({ type: 'url', inputMode: 'url', autoComplete: 'url' });
  });

  it('numbers: text inputs (so "1,234.50" can be typed) with min, max and step', () => {
    expect(field(funding, 'employee_count').attributes).toEqual({
      type: 'text',
      inputMode: 'numeric',
      min: 0,
      max: 1_000_000,
      step: 1,
      spellCheck: false,
    });
    expect(field(funding, 'funding_amount').attributes).toMatchObject({
      inputMode: 'decimal',
      min: 0,
      max: 50_000_000,
      step: 0.01,
    });
    expect(field(funding, 'gross_margin').attributes).toMatchObject({ min: 0, max: 100, step: 'any' });
    // A loss is negative, and numeric keypads have no minus key.
    expect(field(funding, 'net_profit').attributes.inputMode).toBeUndefined();
  });

  it('dates: a date input', () => {
    expect(field(funding, 'financial_year_end').attributes).toEqual({ type: 'date' });
    expect(field(funding, 'owner_dob').attributes).toEqual({ type: 'date', autoComplete: 'bday' });
  });

  it('patterns reach HTML only when its v-flag syntax can express them', () => {
    expect(htmlPattern('^[A-Z]{2}$')).toBe('[A-Z]{2}');
    // [A-Za-z0-9-] and [0-9 ()-] are invalid in a v-flag class: the browser would drop them, so do we.
    expect(field(funding, 'registration_number').attributes.pattern).toBeUndefined();
    expect(field(funding, 'contact_phone').attributes.pattern).toBeUndefined();
    expect(htmlPattern('^[a-z]+$')).toBe('[a-z]+');
    expect(htmlPattern('abc')).toBe('.*(?:abc).*');
    expect(htmlPattern('^a|b$')).toBe('.*(?:^a|b$).*');
    expect(htmlPattern('([')).toBeUndefined();
  });
});

describe('questions and fields', () => {
  it('required is question.is_required && field.is_required', () => {
    expect(field(funding, 'legal_name').required).toBe(true);
    expect(field(funding, 'trading_name').required).toBe(false);
    expect(field(funding, 'business_address', 'line1').required).toBe(true);
    expect(field(funding, 'business_address', 'line2').required).toBe(false);
  });

  it('keeps labels and help text, and turns examples into hints', () => {
    const legal = field(funding, 'legal_name');
    expect(legal.label).toBe('Legal business name');
    expect(legal.question.helpText).toBe('As registered, or your own name if you trade as a sole trader.');
    expect(legal.hint).toBe('Meridian Engineering Ltd');
    expect(field(funding, 'funding_amount').hint).toBe('250,000');
    expect(field(funding, 'net_profit').hint).toBe('142500.5');
    expect(field(funding, 'employee_count').hint).toBe('24');
    // Nothing is typed in these: the options already show what is expected.
    expect(field(funding, 'company_type').hint).toBeNull();
    expect(field(funding, 'can_offer_collateral').hint).toBeNull();
    expect(field(funding, 'bank_statements', 'files').hint).toBeNull();
    expect(field(funding, 'owner_address', 'line2').hint).toBeNull();
  });

  it('lays an address out as one block, with address autocomplete per line', () => {
    const address = funding.questionBySchemaKey.get('business_address');
    expect(address?.layout).toBe('address');
    expect(address?.fields.map((f) => [f.fieldKey, f.attributes.autoComplete])).toEqual([
      ['line1', 'address-line1'],
      ['line2', 'address-line2'],
      ['city', 'address-level2'],
      ['region', 'address-level1'],
      ['postal_code', 'postal-code'],
      ['country', 'country'],
    ]);
    expect(field(funding, 'business_address', 'country').helpText).toBe(
      'Two-letter ISO 3166 country code, for example GB or US.',
    );
    expect(funding.questionBySchemaKey.get('legal_name')?.layout).toBe('single');
  });

  it('compiles visibility and its dependencies', () => {
    const registration = funding.questionBySchemaKey.get('registration_number');
    expect(registration?.dependsOn).toEqual([{ schema_key: 'company_type', field_key: 'value' }]);
    expect(funding.questionBySchemaKey.get('legal_name')?.dependsOn).toEqual([]);
    expect(funding.conditionalQuestions.map((q) => q.schemaKey)).toContain('owner_guarantee_limit');
  });
});

describe('options', () => {
  it('takes labels from a help text that lists the options', () => {
    expect(field(funding, 'company_type').options).toEqual([
      { value: 'sole_trader', label: 'Sole trader', answer: 'sole_trader' },
      { value: 'partnership', label: 'Partnership', answer: 'partnership' },
      { value: 'limited_company', label: 'Limited company', answer: 'limited_company' },
      { value: 'llp', label: 'LLP', answer: 'llp' },
      { value: 'llc', label: 'LLC', answer: 'llc' },
      { value: 'corporation', label: 'Corporation', answer: 'corporation' },
      { value: 'nonprofit', label: 'Non-profit', answer: 'nonprofit' },
      { value: 'other', label: 'Other', answer: 'other' },
    ]);
    expect(field(funding, 'funding_timeline').options?.map((o) => o.label)).toEqual([
      'Within two weeks',
      'Within one month',
      'Within three months',
      'Flexible',
    ]);
    // "Choose all that apply: working capital, …": the lead-in is not an option.
    expect(field(funding, 'funding_purpose').options?.map((o) => o.label)).toEqual([
      'Working capital',
      'Equipment',
      'Property',
      'Refinancing',
      'Expansion',
      'Inventory',
      'Acquisition',
      'Other',
    ]);
  });

  it('humanises enum values when the help text does not list them', () => {
    expect(field(funding, 'industry').options?.map((o) => o.label)).toEqual([
      'Agriculture',
      'Construction',
      'Manufacturing',
      'Retail',
      'Hospitality',
      'Healthcare',
      'Professional services',
      'Technology',
      'Transport logistics',
      'Other',
    ]);
    // The help text names three of them; "bullet" is described, not listed.
    const deal = formModel(buildDealContract());
    expect(field(deal, 'repayment_frequency').options?.map((o) => o.label)).toEqual(['Monthly', 'Quarterly', 'Bullet']);
    expect(humanize('limited_company')).toBe('Limited company');
    expect(humanize('owner-addresses')).toBe('Owner addresses');
  });

  it('reads a choice as the contract names it: the help text before a colon too, in its own case', () => {
    // "GBP, EUR or USD: funders lend in one currency per product." — the list stands before the colon.
    const criteria = formModel(buildCriteriaContract());
    expect(field(criteria, 'funding_currency').options?.map((o) => o.label)).toEqual(['GBP', 'EUR', 'USD']);
  });

  it('takes titles value_schema gives its choices, and names codes nobody reads as they are', () => {
    const choice = (schema_key: string, label: string, value_schema: QuestionField['value_schema'], help_text: string | null = null): Question =>
      oneFieldQuestion({ schema_key, kind: 'single_choice', label, value_schema, help_text });
    const model = formModel({
      contract_version: 'labels',
      sections: [{ section_key: 's1', label: 'One', order: 1 }],
      repeatable_groups: [],
      questions: [
        choice('titled', 'Plan', { type: 'string', enum: ['b1', 'b2'], oneOf: [{ const: 'b1', title: 'Basic' }, { const: 'b2', title: 'Business plus' }] }),
        choice('loan_currency', 'Currency', { type: 'string', enum: ['gbp', 'eur', 'usd'] }),
        choice('home', 'Country of residence', { type: 'string', enum: ['gb', 'ie'] }),
        // Three letters that are currency codes, in a field about something else: not taken for currencies.
        choice('team', 'Team', { type: 'string', enum: ['usd', 'eur'] }),
      ],
    });
    expect(field(model, 'titled').options?.map((o) => o.label)).toEqual(['Basic', 'Business plus']);
    const currencies = field(model, 'loan_currency').options!.map((o) => o.label);
    expect(currencies).toEqual([expect.stringMatching(/^[A-Z].+ \(GBP\)$/), expect.stringMatching(/^Euro \(EUR\)$/), expect.stringMatching(/Dollar \(USD\)$/)]);
    expect(currencies[0]).not.toMatch(/^Gbp/);
    expect(field(model, 'home').options?.map((o) => o.label)).toEqual(['United Kingdom (GB)', 'Ireland (IE)']);
    expect(field(model, 'team').options?.map((o) => o.label)).toEqual(['Usd', 'Eur']);
  });

  it('radio for up to six options, select beyond', () => {
    expect(field(funding, 'asset_type').options).toHaveLength(6);
    expect(field(funding, 'asset_type').widget).toBe('radio');
    expect(field(funding, 'industry').widget).toBe('select');
  });
});

describe('repeatable groups', () => {
  it('nests groups through parent_block_key, with their questions in order', () => {
    const owners = funding.groupByKey.get('owners');
    expect(owners).toMatchObject({
      label: 'Owners',
      sectionKey: 'owners',
      parentBlockKey: null,
      minItems: 1,
      maxItems: 4,
      depth: 0,
      canList: true,
      canCreate: true,
      canUpdate: true,
      canDelete: true,
    });
    expect(owners?.questions.map((q) => q.schemaKey)).toEqual([
      'owner_full_name',
      'owner_email',
      'owner_ownership_pct',
      'owner_dob',
      'owner_is_guarantor',
      'owner_guarantee_limit',
      'owner_id_document',
    ]);
    const addresses = owners?.children[0];
    expect(addresses).toMatchObject({
      blockKey: 'owner_addresses',
      label: 'Owner addresses',
      parentBlockKey: 'owners',
      depth: 1,
      minItems: 0,
      maxItems: 3,
    });
    expect(addresses?.fields.map((f) => `${f.schemaKey}.${f.fieldKey}`)).toEqual([
      'owner_address.line1',
      'owner_address.line2',
      'owner_address.city',
      'owner_address.region',
      'owner_address.postal_code',
      'owner_address.country',
      'owner_years_at_address.value',
    ]);
    expect(funding.groups.map((g) => g.blockKey)).toEqual(['owners', 'owner_addresses', 'assets']);
    expect(funding.sections.find((s) => s.sectionKey === 'owners')?.groups.map((g) => g.blockKey)).toEqual(['owners']);
  });

  it('keeps group fields out of the top level, and gives them per-item names', () => {
    expect(funding.topFields.some((f) => f.groupKey !== null)).toBe(false);
    const email = field(funding, 'owner_email');
    expect(email.groupKey).toBe('owners');
    expect(email.name).toBeNull();
    expect(fieldForName(funding, itemName('ritem_1', 'owner_email', 'value'))).toBe(email);
    // A group's field is never a top-level answer.
    expect(fieldForName(funding, answerName('owners', 'owner_email', 'value'))).toBeUndefined();
  });

  it('respects item_operations', () => {
    const contract = buildFundingContract();
    const readOnly: FormContract = {
      ...contract,
      repeatable_groups: contract.repeatable_groups.map((g) => ({ ...g, item_operations: ['list'] })),
    };
    expect(formModel(readOnly).groupByKey.get('assets')).toMatchObject({
      canList: true,
      canCreate: false,
      canUpdate: false,
      canDelete: false,
    });
  });
});

describe('names', () => {
  it('builds and parses stable names', () => {
    expect(field(funding, 'legal_name').name).toBe('a.legal_name.legal_name.value');
    expect(field(funding, 'business_address', 'postal_code').name).toBe('a.business_address.business_address.postal_code');
    expect(parseName('a.legal_name.legal_name.value')).toEqual({
      scope: 'answer',
      blockKey: 'legal_name',
      schemaKey: 'legal_name',
      fieldKey: 'value',
    });
    expect(parseName('i.ritem_abc.owner_email.value')).toEqual({
      scope: 'item',
      itemId: 'ritem_abc',
      schemaKey: 'owner_email',
      fieldKey: 'value',
    });
    expect(groupName('owners', null)).toBe('g.owners');
    expect(parseName(groupName('owner_addresses', 'ritem_1'))).toEqual({
      scope: 'group',
      blockKey: 'owner_addresses',
      parentItemId: 'ritem_1',
    });
  });

  it('escapes dots, brackets and percent signs in keys, and reads them back', () => {
    const name = answerName('b.1', 'q[0]', '50%.x');
    expect(name).toBe('a.b%2E1.q%5B0%5D.50%25%2Ex');
    expect(name.split('.')).toHaveLength(4);
    expect(parseName(name)).toEqual({ scope: 'answer', blockKey: 'b.1', schemaKey: 'q[0]', fieldKey: '50%.x' });
    expect(escapeSegment('plain_key')).toBe('plain_key');
  });

  it('refuses what is not a name', () => {
    for (const bad of ['', 'a.b.c', 'x.b.c.d', 'a..c.d', 'i.a.b.c.d', 'g']) expect(parseName(bad)).toBeNull();
  });
});

describe('fallbacks: nothing in a contract crashes the model', () => {
  const baseField = (value_schema: QuestionField['value_schema'], field_key = 'value'): QuestionField => ({
    field_key,
    label: 'Field',
    help_text: null,
    is_required: true,
    value_schema,
    example: null,
  });
  const q = (schema_key: string, kind: string, fields: QuestionField[], extra: Partial<Question> = {}): Question => ({
    block_key: schema_key,
    schema_key,
    section_key: 's1',
    parent_block_key: null,
    kind,
    label: schema_key,
    help_text: null,
    is_required: true,
    is_repeatable: false,
    answer_shape: 'field',
    order: 1,
    answer_operations: ['read', 'update'],
    visibility: { rule: 'always' },
    fields,
    ...extra,
  });
  const contract = (questions: Question[], groups: RepeatableGroup[] = []): FormContract => ({
    contract_version: 'test-fallbacks',
    sections: [{ section_key: 's1', label: 'One', order: 1 }],
    repeatable_groups: groups,
    questions,
  });

  it('chooses a widget from value_schema for an unknown kind', () => {
    const model = formModel(
      contract([
        q('rating', 'star_rating', [baseField({ type: 'integer', minimum: 1, maximum: 5 })]),
        q('ratio', 'slider', [baseField({ type: 'number' })]),
        q('mood', 'emoji', [baseField({ type: 'string', enum: ['happy', 'sad', 'meh'] })]),
        q('tags', 'tags', [baseField({ type: 'array', items: { type: 'string' } })]),
        q('days', 'weekdays', [baseField({ type: 'array', items: { type: 'string', enum: ['mon', 'tue'] } })]),
        q('agree', 'consent', [baseField({ type: 'boolean', enum: [true] })]),
        q('flag', 'toggle', [baseField({ type: 'boolean' })]),
        q('mail', 'contact', [baseField({ type: 'string', format: 'email' })]),
        q('site', 'link', [baseField({ type: 'string', format: 'uri' })]),
        q('when', 'day', [baseField({ type: 'string', format: 'date' })]),
        q('essay', 'prose', [baseField({ type: 'string', maxLength: 5_000 })]),
        q('anything', 'mystery', [baseField({})]),
        q('docs', 'attachments', [baseField({ type: 'array', items: { type: 'string' } }, 'files')], {
          answer_shape: 'file',
          answer_operations: ['read', 'upload', 'delete'],
        }),
      ]),
    );
    const widgets = Object.fromEntries([...model.fieldById.values()].map((f) => [f.schemaKey, f.widget]));
    expect(widgets).toEqual({
      rating: 'integer',
      ratio: 'number',
      mood: 'radio',
      tags: 'list',
      days: 'checkbox-group',
      agree: 'checkbox',
      flag: 'yes-no',
      mail: 'email',
      site: 'url',
      when: 'date',
      essay: 'textarea',
      anything: 'text',
      docs: 'file',
    });
  });

  it('falls back on value_schema when a known kind does not fit its schema', () => {
    const model = formModel(
      contract([
        q('choice_without_enum', 'single_choice', [baseField({ type: 'string' })]),
        q('integer_as_text', 'integer', [baseField({ type: 'string' })]),
        q('date_time', 'date', [baseField({ type: 'string', format: 'date-time' })]),
        q('numeric_choice', 'number', [baseField({ type: 'integer', enum: [1, 2, 3] })]),
      ]),
    );
    expect(field(model, 'choice_without_enum').widget).toBe('text');
    expect(field(model, 'integer_as_text').widget).toBe('text');
    expect(field(model, 'date_time').widget).toBe('text');
    const numeric = field(model, 'numeric_choice');
    expect(numeric.widget).toBe('radio');
    expect(numeric.options).toEqual([
      { value: '1', label: '1', answer: 1 },
      { value: '2', label: '2', answer: 2 },
      { value: '3', label: '3', answer: 3 },
    ]);
  });

  it('survives unknown visibility rules, odd schemas, missing sections and broken group parents', () => {
    const groupQuestion = (schema_key: string, block_key: string, order: number) =>
      q(schema_key, 'text', [baseField({ type: 'string' })], { block_key, is_repeatable: true, order, section_key: 'elsewhere' });
    const model = formModel(
      contract(
        [
          q('odd_rule', 'text', [baseField({ type: 'string' })], { visibility: { rule: 'when_the_moon_is_full' } }),
          q('odd_schema', 'text', [baseField({ type: ['string', 'null'], pattern: '(', maxLength: -1 } as never)]),
          q('no_section', 'text', [baseField({ type: 'string' })], { section_key: 'unlisted_section', order: 2 }),
          groupQuestion('orphan_q', 'orphan', 3),
          groupQuestion('loop_a_q', 'loop_a', 4),
          groupQuestion('loop_b_q', 'loop_b', 5),
        ],
        [
          { block_key: 'orphan', section_key: 'elsewhere', parent_block_key: 'missing', min_items: null, max_items: null, item_question_keys: ['orphan_q'], item_operations: ['list'] },
          { block_key: 'loop_a', section_key: 'elsewhere', parent_block_key: 'loop_b', min_items: null, max_items: null, item_question_keys: ['loop_a_q'], item_operations: [] },
          { block_key: 'loop_b', section_key: 'elsewhere', parent_block_key: 'loop_a', min_items: null, max_items: null, item_question_keys: ['loop_b_q'], item_operations: [] },
        ],
      ),
    );
    expect(model.questionBySchemaKey.get('odd_rule')?.dependsOn).toEqual([]);
    expect(model.questionBySchemaKey.get('odd_rule')?.isVisible(() => undefined)).toBe(true);
    expect(field(model, 'odd_schema').attributes).toEqual({ type: 'text' });
    expect(field(model, 'odd_schema').textLimit).toEqual({ max: 10_000, units: 'utf16' });
    expect(model.sections.map((s) => [s.sectionKey, s.label])).toEqual([
      ['s1', 'One'],
      ['unlisted_section', 'Unlisted section'],
      ['elsewhere', 'Elsewhere'],
    ]);
    // Every group is reachable somewhere, once.
    expect(model.groups.map((g) => g.blockKey).sort()).toEqual(['loop_a', 'loop_b', 'orphan']);
    expect(model.groupByKey.get('orphan')?.parentBlockKey).toBeNull();
  });
});

describe('the large contract', () => {
  it('compiles 1,000+ fields once, quickly', () => {
    const contract = buildLargeContract();
    const started = performance.now();
    const model = formModel(contract);
    const elapsed = performance.now() - started;
    expect(model.fieldById.size).toBeGreaterThanOrEqual(1_000);
    expect(model.sections).toHaveLength(46);
    expect(model.groupByKey.get('gb')?.parentBlockKey).toBe('ga');
    // Generous: compiling is a one-off per contract, but it must not stall a page.
    expect(elapsed).toBeLessThan(500);
  });
});
