import type {
  AnswerShape,
  ContractSection,
  KnownKind,
  Question,
  QuestionField,
  RepeatableGroup,
  ValueSchema,
  Visibility,
  VisibilityCondition,
} from '@/lib/portal';
import type { ContractTemplate } from './types';

/*
 * Part 1: contract builders. Both seed contracts are written with them, so the conventions the sandbox
 * and the forms rely on (block keys, field keys, shapes and operations per kind, display order) live in one place.
 */

const PHONE_PATTERN = '^\\+?[0-9 ()-]{7,20}$';

/** value_schema per kind, as the sandbox's contracts agree to write them. */
export const vs = {
  text: (extra: { minLength?: number; maxLength?: number; pattern?: string } = {}): ValueSchema => ({
    type: 'string',
    maxLength: 255,
    ...extra,
  }),
  longText: (): ValueSchema => ({ type: 'string', maxLength: 10_000 }),
  email: (): ValueSchema => ({ type: 'string', format: 'email', maxLength: 255 }),
  phone: (): ValueSchema => ({ type: 'string', pattern: PHONE_PATTERN }),
  url: (): ValueSchema => ({ type: 'string', format: 'uri' }),
  integer: (minimum: number, maximum: number): ValueSchema => ({ type: 'integer', minimum, maximum }),
  number: (): ValueSchema => ({ type: 'number' }),
  currency: (maximum?: number): ValueSchema => ({
    type: 'number',
    minimum: 0,
    multipleOf: 0.01,
    ...(maximum === undefined ? {} : { maximum }),
  }),
  percent: (): ValueSchema => ({ type: 'number', minimum: 0, maximum: 100 }),
  date: (): ValueSchema => ({ type: 'string', format: 'date' }),
  yesNo: (): ValueSchema => ({ type: 'boolean' }),
  /** A declaration: only "yes" is acceptable, so a required one blocks submission until confirmed. */
  mustBeYes: (): ValueSchema => ({ type: 'boolean', enum: [true] }),
  singleChoice: (values: readonly string[]): ValueSchema => ({ type: 'string', enum: [...values] }),
  multiChoice: (values: readonly string[], minItems?: number): ValueSchema => ({
    type: 'array',
    items: { type: 'string', enum: [...values] },
    ...(minItems === undefined ? {} : { minItems }),
    maxItems: values.length,
  }),
  files: (maxItems: number): ValueSchema => ({ type: 'array', items: { type: 'string' }, maxItems }),
};

function answerShapeOf(kind: KnownKind): AnswerShape {
  if (kind === 'single_choice' || kind === 'multi_choice') return 'selection_list';
  return kind === 'file' ? 'file' : 'field';
}

/** Files are uploaded and deleted, never written as values. */
function answerOperationsOf(shape: AnswerShape): Question['answer_operations'] {
  return shape === 'file' ? ['read', 'upload', 'delete'] : ['read', 'update'];
}

export const when = {
  equals: (schema_key: string, value: unknown, field_key = 'value'): VisibilityCondition => ({
    schema_key,
    field_key,
    operator: 'equals',
    value,
  }),
  includes: (schema_key: string, value: string, field_key = 'value'): VisibilityCondition => ({
    schema_key,
    field_key,
    operator: 'includes',
    value,
  }),
  answered: (schema_key: string, field_key = 'value'): VisibilityCondition => ({
    schema_key,
    field_key,
    operator: 'answered',
  }),
  notAnswered: (schema_key: string, field_key = 'value'): VisibilityCondition => ({
    schema_key,
    field_key,
    operator: 'not_answered',
  }),
};

export const visibleWhen = (match: 'all' | 'any', ...conditions: VisibilityCondition[]): Visibility => ({
  rule: 'conditional',
  match,
  conditions,
});

/** A question before it is placed: block keys, section and order are decided by where it is placed. */
export interface QuestionDraft {
  schema_key: string;
  kind: KnownKind;
  label: string;
  help_text: string | null;
  is_required: boolean;
  visibility: Visibility;
  fields: QuestionField[];
}

export interface GroupDraft {
  block_key: string;
  min_items: number | null;
  max_items: number | null;
  questions: QuestionDraft[];
  /** Groups nested in this one's items. */
  groups?: GroupDraft[];
}

export interface SectionDraft {
  section_key: string;
  label: string;
  entries: Array<QuestionDraft | GroupDraft>;
}

interface QuestionOptions {
  help?: string | null;
  required?: boolean;
  visibility?: Visibility;
}

/** A single-field question: field_key "value", or "files" for a file question. */
export function question(
  kind: KnownKind,
  schema_key: string,
  label: string,
  value_schema: ValueSchema,
  example: unknown,
  options: QuestionOptions = {},
): QuestionDraft {
  const is_required = options.required ?? false;
  const field: QuestionField = {
    field_key: kind === 'file' ? 'files' : 'value',
    label,
    help_text: null,
    is_required,
    value_schema,
    example: kind === 'file' ? null : example,
  };
  return multiFieldQuestion(kind, schema_key, label, [field], options);
}

export function multiFieldQuestion(
  kind: KnownKind,
  schema_key: string,
  label: string,
  fields: QuestionField[],
  options: QuestionOptions = {},
): QuestionDraft {
  return {
    schema_key,
    kind,
    label,
    help_text: options.help ?? null,
    is_required: options.required ?? false,
    visibility: options.visibility ?? { rule: 'always' },
    fields,
  };
}

export const fileQuestion = (schema_key: string, label: string, maxItems: number, options: QuestionOptions = {}) =>
  question('file', schema_key, label, vs.files(maxItems), null, options);

export interface Address {
  line1: string;
  line2: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
}

export const ADDRESS_FIELD_KEYS = ['line1', 'line2', 'city', 'region', 'postal_code', 'country'] as const;

/** One address question holds all its lines, so a form can lay them out (and autofill them) together. */
export function addressQuestion(schema_key: string, label: string, example: Address, options: QuestionOptions = {}) {
  const field = (
    field_key: keyof Address,
    fieldLabel: string,
    is_required: boolean,
    value_schema: ValueSchema,
    help_text: string | null = null,
  ): QuestionField => ({
    field_key,
    label: fieldLabel,
    help_text,
    is_required,
    value_schema,
    example: example[field_key],
  });
  return multiFieldQuestion(
    'address',
    schema_key,
    label,
    [
      field('line1', 'Address line 1', true, vs.text({ minLength: 1 })),
      field('line2', 'Address line 2', false, vs.text()),
      field('city', 'Town or city', true, vs.text({ minLength: 1, maxLength: 100 })),
      field('region', 'County, state or region', false, vs.text({ maxLength: 100 })),
      field('postal_code', 'Postcode or ZIP code', true, vs.text({ minLength: 2, maxLength: 16 })),
      field(
        'country',
        'Country',
        true,
        vs.text({ minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' }),
        'Two-letter ISO 3166 country code, for example GB or US.',
      ),
    ],
    options,
  );
}

export const group = (
  block_key: string,
  min_items: number | null,
  max_items: number | null,
  questions: QuestionDraft[],
  groups: GroupDraft[] = [],
): GroupDraft => ({ block_key, min_items, max_items, questions, groups });

type ContractMeta = Pick<ContractTemplate, 'contract_version' | 'application_name' | 'description' | 'instructions'>;

/** Places drafts: sections and questions are numbered in display order; nested groups follow their parent's questions. */
export function assembleContract(meta: ContractMeta, drafts: SectionDraft[]): ContractTemplate {
  const sections: ContractSection[] = [];
  const repeatable_groups: RepeatableGroup[] = [];
  const questions: Question[] = [];

  const place = (
    draft: QuestionDraft,
    section_key: string,
    scope: { block_key: string; parent: string | null } | null,
  ) => {
    const answer_shape = answerShapeOf(draft.kind);
    questions.push({
      block_key: scope?.block_key ?? draft.schema_key,
      schema_key: draft.schema_key,
      section_key,
      parent_block_key: scope?.parent ?? null,
      kind: draft.kind,
      label: draft.label,
      help_text: draft.help_text,
      is_required: draft.is_required,
      is_repeatable: scope !== null,
      answer_shape,
      order: questions.length + 1,
      answer_operations: answerOperationsOf(answer_shape),
      visibility: draft.visibility,
      fields: draft.fields,
    });
  };

  const placeGroup = (draft: GroupDraft, section_key: string, parent: string | null) => {
    repeatable_groups.push({
      block_key: draft.block_key,
      section_key,
      parent_block_key: parent,
      min_items: draft.min_items,
      max_items: draft.max_items,
      item_question_keys: draft.questions.map((q) => q.schema_key),
      item_operations: ['list', 'create', 'update', 'delete'],
    });
    for (const q of draft.questions) place(q, section_key, { block_key: draft.block_key, parent });
    for (const child of draft.groups ?? []) placeGroup(child, section_key, draft.block_key);
  };

  drafts.forEach((section, index) => {
    sections.push({ section_key: section.section_key, label: section.label, order: index + 1 });
    for (const entry of section.entries) {
      if ('questions' in entry) placeGroup(entry, section.section_key, null);
      else place(entry, section.section_key, null);
    }
  });

  return { ...meta, sections, repeatable_groups, questions };
}

/*
 * Part 2: the business-funding intake contract.
 */

export const FUNDING_CONTRACT_VERSION = 'funding-intake-2026.11';

export const COMPANY_TYPES = [
  'sole_trader',
  'partnership',
  'limited_company',
  'llp',
  'llc',
  'corporation',
  'nonprofit',
  'other',
] as const;
/** Incorporated types have a registry number worth asking for. */
const REGISTERED_TYPES = ['limited_company', 'llp', 'llc', 'corporation'] as const;
export const INDUSTRIES = [
  'agriculture',
  'construction',
  'manufacturing',
  'retail',
  'hospitality',
  'healthcare',
  'professional_services',
  'technology',
  'transport_logistics',
  'other',
] as const;
export const FUNDING_PURPOSES = [
  'working_capital',
  'equipment',
  'property',
  'refinancing',
  'expansion',
  'inventory',
  'acquisition',
  'other',
] as const;
export const FUNDING_TIMELINES = ['within_two_weeks', 'within_one_month', 'within_three_months', 'flexible'] as const;
export const CONTACT_METHODS = ['email', 'phone', 'either'] as const;
export const ASSET_TYPES = ['property', 'vehicle', 'equipment', 'inventory', 'receivables', 'other'] as const;

/** The address questions' example: Meridian's, the demo business that fills this contract. */
export const EXAMPLE_ADDRESS: Address = {
  line1: '14 Foundry Lane',
  line2: 'Unit 3',
  city: 'Leeds',
  region: 'West Yorkshire',
  postal_code: 'LS1 4AB',
  country: 'GB',
};

const businessSection = (): SectionDraft => ({
  section_key: 'business',
  label: 'Business details',
  entries: [
    question('text', 'legal_name', 'Legal business name', vs.text({ minLength: 2 }), 'Meridian Engineering Ltd', {
      required: true,
      help: 'As registered, or your own name if you trade as a sole trader.',
    }),
    question('text', 'trading_name', 'Trading name', vs.text(), 'Meridian Engineering', {
      help: 'Only if it differs from the legal name.',
    }),
    question('single_choice', 'company_type', 'Type of business', vs.singleChoice(COMPANY_TYPES), 'limited_company', {
      required: true,
      help: 'Sole trader, partnership, limited company, LLP, LLC, corporation, non-profit or other.',
    }),
    question(
      'text',
      'registration_number',
      'Company registration number',
      vs.text({ minLength: 4, maxLength: 20, pattern: '^[A-Za-z0-9-]{4,20}$' }),
      '09876543',
      {
        required: true,
        help: 'Companies House number, state filing number or equivalent.',
        visibility: visibleWhen('any', ...REGISTERED_TYPES.map((type) => when.equals('company_type', type))),
      },
    ),
    question('date', 'date_established', 'Date the business started trading', vs.date(), '2016-04-01', {
      required: true,
      help: null,
    }),
    question('single_choice', 'industry', 'Industry', vs.singleChoice(INDUSTRIES), 'manufacturing', {
      required: true,
      help: 'The closest match to what the business mainly does.',
    }),
    question('integer', 'employee_count', 'Number of employees', vs.integer(0, 1_000_000), 24, {
      required: true,
      help: 'Full-time equivalents, including directors on the payroll.',
    }),
    question('url', 'website', 'Website', vs.url(), 'https://meridian-engineering.example', { help: null }),
    question(
      'url',
      'online_presence_url',
      'Social media or marketplace page',
      vs.url(),
      'https://social.example/meridian',
      {
        help: 'If you have no website, a page where customers find you.',
        visibility: visibleWhen('all', when.notAnswered('website')),
      },
    ),
    addressQuestion('business_address', 'Registered or trading address', EXAMPLE_ADDRESS, {
      required: true,
      help: null,
    }),
    question(
      'long_text',
      'business_description',
      'What does the business do?',
      vs.longText(),
      'We design and machine precision parts for the rail and aerospace industries.',
      { required: true, help: 'A few sentences on your products or services and your customers.' },
    ),
  ],
});

const contactSection = (): SectionDraft => ({
  section_key: 'contact',
  label: 'Contact',
  entries: [
    question('text', 'contact_name', 'Contact name', vs.text({ minLength: 2 }), 'Alex Morgan', {
      required: true,
      help: 'The person we should talk to about this application.',
    }),
    question('text', 'contact_role', 'Role in the business', vs.text(), 'Finance director', { help: null }),
    question('email', 'contact_email', 'Email address', vs.email(), 'alex.morgan@meridian-engineering.example', {
      required: true,
      help: null,
    }),
    question('phone', 'contact_phone', 'Phone number', vs.phone(), '+44 20 7946 0958', {
      required: true,
      help: 'Include the country code if you are outside the UK or US.',
    }),
    question(
      'single_choice',
      'preferred_contact',
      'Preferred way to be contacted',
      vs.singleChoice(CONTACT_METHODS),
      'email',
      { help: 'Email, phone or either.' },
    ),
  ],
});

const fundingSection = (): SectionDraft => ({
  section_key: 'funding',
  label: 'Funding request',
  entries: [
    question('currency', 'funding_amount', 'How much funding do you need?', vs.currency(50_000_000), 250_000, {
      required: true,
      help: 'In the currency of your main business account.',
    }),
    question(
      'multi_choice',
      'funding_purpose',
      'What is the funding for?',
      vs.multiChoice(FUNDING_PURPOSES, 1),
      ['equipment', 'working_capital'],
      {
        required: true,
        help: 'Choose all that apply: working capital, equipment, property, refinancing, expansion, inventory, acquisition, other.',
      },
    ),
    question(
      'long_text',
      'purpose_details',
      'Tell us more about the purpose',
      vs.longText(),
      'Fit-out of a second workshop we have leased next door.',
      { required: true, help: null, visibility: visibleWhen('all', when.includes('funding_purpose', 'other')) },
    ),
    question(
      'single_choice',
      'funding_timeline',
      'When do you need the funds?',
      vs.singleChoice(FUNDING_TIMELINES),
      'within_one_month',
      { required: true, help: 'Within two weeks, within one month, within three months, or flexible.' },
    ),
    question('integer', 'preferred_term_months', 'Preferred repayment term (months)', vs.integer(1, 360), 60, {
      help: 'Leave blank if you would like us to suggest one.',
    }),
    question('yes_no', 'can_offer_collateral', 'Can you offer security for the funding?', vs.yesNo(), true, {
      required: true,
      help: 'For example property, equipment or a personal guarantee.',
    }),
  ],
});

const financialsSection = (): SectionDraft => ({
  section_key: 'financials',
  label: 'Financials',
  entries: [
    question('currency', 'annual_revenue', 'Annual revenue (last financial year)', vs.currency(), 1_850_000, {
      required: true,
      help: null,
    }),
    question('number', 'net_profit', 'Net profit (last financial year)', vs.number(), 142_500.5, {
      required: true,
      help: 'Enter a negative number for a loss.',
    }),
    question('percent', 'gross_margin', 'Gross margin', vs.percent(), 38.5, { help: 'As a percentage of revenue.' }),
    question('date', 'financial_year_end', 'End of the last financial year', vs.date(), '2025-03-31', {
      required: true,
      help: null,
    }),
    question('yes_no', 'has_existing_debt', 'Does the business have existing loans or finance?', vs.yesNo(), false, {
      required: true,
      help: 'Include overdrafts, asset finance and director loans.',
    }),
    question('currency', 'existing_debt_amount', 'Total outstanding debt', vs.currency(), 48_000, {
      required: true,
      help: null,
      visibility: visibleWhen('all', when.equals('has_existing_debt', true)),
    }),
    question(
      'text',
      'existing_lenders',
      'Who are the lenders?',
      vs.text(),
      'Barclays overdraft; Close Brothers asset finance',
      {
        help: null,
        visibility: visibleWhen('all', when.equals('has_existing_debt', true)),
      },
    ),
    question('text', 'accountant_name', 'Accountant or accounting firm', vs.text(), 'Whitfield & Co', { help: null }),
    question('email', 'accountant_email', "Accountant's email address", vs.email(), 'hello@whitfield.example', {
      help: 'We only contact them with your permission.',
      visibility: visibleWhen('all', when.answered('accountant_name')),
    }),
    fileQuestion('bank_statements', 'Business bank statements', 10, { help: 'The last six months, as PDFs.' }),
    fileQuestion('annual_accounts', 'Latest annual accounts', 1, { help: null }),
  ],
});

const ownersSection = (): SectionDraft => ({
  section_key: 'owners',
  label: 'Owners',
  entries: [
    group(
      'owners',
      1,
      4,
      [
        question('text', 'owner_full_name', 'Full name', vs.text({ minLength: 2 }), 'Alex Morgan', {
          required: true,
          help: null,
        }),
        question('email', 'owner_email', 'Email address', vs.email(), 'alex.morgan@meridian-engineering.example', {
          required: true,
          help: null,
        }),
        question('percent', 'owner_ownership_pct', 'Ownership', vs.percent(), 60, {
          required: true,
          help: 'Percentage of the business this person owns.',
        }),
        question('date', 'owner_dob', 'Date of birth', vs.date(), '1979-08-14', { required: true, help: null }),
        question('yes_no', 'owner_is_guarantor', 'Will this owner give a personal guarantee?', vs.yesNo(), true, {
          required: true,
          help: null,
        }),
        question('currency', 'owner_guarantee_limit', 'Guarantee limit', vs.currency(), 100_000, {
          required: true,
          help: 'The most this owner is prepared to guarantee.',
          visibility: visibleWhen('all', when.equals('owner_is_guarantor', true)),
        }),
        fileQuestion('owner_id_document', 'ID document', 1, { help: 'Passport or driving licence.' }),
      ],
      [
        group('owner_addresses', 0, 3, [
          addressQuestion(
            'owner_address',
            'Home address',
            { ...EXAMPLE_ADDRESS, line1: '7 Orchard Close', line2: '' },
            {
              required: true,
              help: null,
            },
          ),
          question('integer', 'owner_years_at_address', 'Years at this address', vs.integer(0, 100), 4, {
            required: true,
            help: 'Add previous addresses until they cover three years.',
          }),
        ]),
      ],
    ),
  ],
});

const assetsSection = (): SectionDraft => ({
  section_key: 'assets',
  label: 'Assets',
  entries: [
    group('assets', 0, 10, [
      question('text', 'asset_description', 'Description', vs.text({ minLength: 2 }), 'CNC milling machine', {
        required: true,
        help: null,
      }),
      question('single_choice', 'asset_type', 'Type of asset', vs.singleChoice(ASSET_TYPES), 'equipment', {
        required: true,
        help: 'Property, vehicle, equipment, inventory, receivables or other.',
      }),
      question('currency', 'asset_value', 'Estimated value', vs.currency(), 85_000, { required: true, help: null }),
      question('yes_no', 'asset_is_financed', 'Is there finance outstanding on it?', vs.yesNo(), false, { help: null }),
      question('currency', 'asset_finance_outstanding', 'Finance outstanding', vs.currency(), 12_000, {
        required: true,
        help: null,
        visibility: visibleWhen('all', when.equals('asset_is_financed', true)),
      }),
    ]),
  ],
});

const declarationsSection = (): SectionDraft => ({
  section_key: 'declarations',
  label: 'Declarations',
  entries: [
    question(
      'yes_no',
      'decl_accurate',
      'The information in this application is true and complete',
      vs.mustBeYes(),
      true,
      {
        required: true,
        help: 'You must confirm this to submit.',
      },
    ),
    question('yes_no', 'decl_credit_check', 'I agree to credit and identity checks', vs.mustBeYes(), true, {
      required: true,
      help: 'Checks on the business and on each owner who gives a guarantee.',
    }),
    question('yes_no', 'marketing_opt_in', 'Send me news about other funding products', vs.yesNo(), false, {
      help: null,
    }),
    question('text', 'signatory_name', 'Name of the person signing', vs.text({ minLength: 2 }), 'Alex Morgan', {
      required: true,
      help: null,
    }),
    question('date', 'signature_date', 'Date signed', vs.date(), '2026-01-15', { required: true, help: null }),
    fileQuestion('supporting_documents', 'Other supporting documents', 10, {
      help: 'Anything else that helps us assess the application.',
    }),
  ],
});

/** Built fresh on every call: the store owns and may mutate what it is given. */
export function buildFundingContract(): ContractTemplate {
  return assembleContract(
    {
      contract_version: FUNDING_CONTRACT_VERSION,
      application_name: 'Business funding application',
      description: 'Tell us about your business and the funding you need so we can match you with the right lenders.',
      instructions:
        'Answers save as you go. Add every owner with 25% or more of the business. Upload documents as PDFs or images.',
    },
    [
      businessSection(),
      contactSection(),
      fundingSection(),
      financialsSection(),
      ownersSection(),
      assetsSection(),
      declarationsSection(),
    ],
  );
}
