import {
  AnswerValue,
  KNOWN_KINDS,
  type KnownKind,
  type ValueSchema,
  type Visibility,
  type VisibilityCondition,
} from '@/lib/portal';
import {
  addressQuestion,
  fileQuestion,
  group,
  question,
  visibleWhen,
  vs,
  when,
  assembleContract,
  type QuestionDraft,
  type SectionDraft,
} from './funding-contract';
import type { ContractTemplate, SeedAnswer, SeedItem } from './types';

/*
 * A generated contract for performance work: big enough that paging, rendering and saving are measured at a
 * realistic worst case (1,000+ fields), deterministic so benchmarks compare like with like.
 */

export const LARGE_CONTRACT_VERSION = 'large-1000-v1';
const LARGE_SECTION_COUNT = 45;
const LARGE_QUESTIONS_PER_SECTION = 20;
const LARGE_OPTIONS = ['option_a', 'option_b', 'option_c', 'option_d'] as const;

const THEMES = [
  'Operations',
  'Premises',
  'Staff',
  'Suppliers',
  'Customers',
  'Insurance',
  'Tax',
  'Banking',
  'Equipment',
  'Vehicles',
  'Property',
  'Compliance',
  'Marketing',
  'Technology',
  'Planning',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const largeSectionKey = (section: number) => `p${pad(section)}`;
const largeQuestionKey = (section: number, index: number) => `p${pad(section)}q${pad(index + 1)}`;

/** Kinds rotate by section so every section mixes all of them, in a different order. */
const largeKindAt = (section: number, index: number): KnownKind =>
  KNOWN_KINDS[(section + index) % KNOWN_KINDS.length] ?? 'text';

const SCALARS: Record<Exclude<KnownKind, 'address' | 'file'>, { schema: () => ValueSchema; example: unknown }> = {
  text: { schema: () => vs.text(), example: 'Sample answer' },
  long_text: { schema: () => vs.longText(), example: 'A longer sample answer that spans a sentence or two.' },
  email: { schema: () => vs.email(), example: 'ops@atlas-logistics.example' },
  phone: { schema: () => vs.phone(), example: '+1 555 0100 123' },
  url: { schema: () => vs.url(), example: 'https://atlas-logistics.example' },
  integer: { schema: () => vs.integer(0, 100_000), example: 42 },
  number: { schema: () => vs.number(), example: -12.75 },
  currency: { schema: () => vs.currency(10_000_000), example: 15_250.5 },
  percent: { schema: () => vs.percent(), example: 12.5 },
  date: { schema: () => vs.date(), example: '2025-06-30' },
  yes_no: { schema: () => vs.yesNo(), example: true },
  single_choice: { schema: () => vs.singleChoice(LARGE_OPTIONS), example: 'option_a' },
  // The example includes option_b so that answering with examples reveals the questions that depend on it.
  multi_choice: { schema: () => vs.multiChoice(LARGE_OPTIONS), example: ['option_a', 'option_b'] },
};

const ADDRESS_EXAMPLE = {
  line1: '1200 Harbor Blvd',
  line2: 'Dock 7',
  city: 'Oakland',
  region: 'CA',
  postal_code: '94607',
  country: 'US',
};

function draft(kind: KnownKind, key: string, label: string, required: boolean, visibility: Visibility): QuestionDraft {
  const options = { required, visibility, help: null };
  if (kind === 'address') return addressQuestion(key, label, ADDRESS_EXAMPLE, options);
  // Files are never required here: seeds cannot upload them, and a required file would block every seeded submit.
  if (kind === 'file') return fileQuestion(key, label, 3, { ...options, required: false });
  const scalar = SCALARS[kind];
  return question(kind, key, label, scalar.schema(), scalar.example, options);
}

/** Deterministic visibility rules, so some questions in most sections come and go as answers change. */
function visibilityRules(section: number): Map<number, Visibility> {
  const rules = new Map<number, Visibility>();
  const indexOf = (kind: KnownKind) =>
    Array.from({ length: LARGE_QUESTIONS_PER_SECTION }, (_, i) => i).find((i) => largeKindAt(section, i) === kind);
  const add = (index: number | undefined, visibility: Visibility) => {
    if (index !== undefined && index < LARGE_QUESTIONS_PER_SECTION && !rules.has(index)) rules.set(index, visibility);
  };
  const yesNo = indexOf('yes_no');
  const multi = indexOf('multi_choice');
  const text = indexOf('text');
  if (section % 3 === 0 && yesNo !== undefined)
    add(yesNo + 1, visibleWhen('all', when.equals(largeQuestionKey(section, yesNo), true)));
  if (section % 3 === 1 && multi !== undefined)
    add(multi + 1, visibleWhen('all', when.includes(largeQuestionKey(section, multi), 'option_b')));
  if (section % 3 === 2 && text !== undefined)
    add(LARGE_QUESTIONS_PER_SECTION - 1, visibleWhen('all', when.answered(largeQuestionKey(section, text))));
  if (section % 5 === 0 && text !== undefined)
    add(LARGE_QUESTIONS_PER_SECTION - 2, visibleWhen('any', when.notAnswered(largeQuestionKey(section, text))));
  return rules;
}

function section(n: number): SectionDraft {
  const theme = THEMES[(n - 1) % THEMES.length] ?? 'General';
  const rules = visibilityRules(n);
  const entries = Array.from({ length: LARGE_QUESTIONS_PER_SECTION }, (_, i) => {
    const kind = largeKindAt(n, i);
    const label = `${theme} ${kind.replace('_', ' ')} ${i + 1}`;
    return draft(kind, largeQuestionKey(n, i), label, i % 4 === 0, rules.get(i) ?? { rule: 'always' });
  });
  return { section_key: largeSectionKey(n), label: `Part ${n}: ${theme}`, entries };
}

/** Two groups in the last section, the second nested in the first. */
function groupsSection(): SectionDraft {
  return {
    section_key: 'pgroups',
    label: 'Locations and vehicles',
    entries: [
      group(
        'ga',
        0,
        20,
        [
          question('text', 'gaq1', 'Location name', vs.text({ minLength: 1 }), 'North depot', { required: true }),
          question('currency', 'gaq2', 'Monthly rent', vs.currency(), 4_500, { required: true }),
          question('date', 'gaq3', 'Lease end', vs.date(), '2028-12-31'),
          question('single_choice', 'gaq4', 'Tenure', vs.singleChoice(LARGE_OPTIONS), 'option_c'),
          question('yes_no', 'gaq5', 'Shared site?', vs.yesNo(), true),
          question('percent', 'gaq6', 'Share of site used', vs.percent(), 40, {
            required: true,
            visibility: visibleWhen('all', when.equals('gaq5', true)),
          }),
        ],
        [
          group('gb', 0, 5, [
            addressQuestion('gbq1', 'Vehicle base address', ADDRESS_EXAMPLE, { required: true }),
            question('integer', 'gbq2', 'Vehicles based here', vs.integer(0, 500), 12, { required: true }),
            fileQuestion('gbq3', 'Fleet list', 3),
          ]),
        ],
      ),
    ],
  };
}

export function buildLargeContract(): ContractTemplate {
  return assembleContract(
    {
      contract_version: LARGE_CONTRACT_VERSION,
      application_name: 'Large application (performance)',
      description: `A generated application with ${LARGE_SECTION_COUNT + 1} sections for performance work.`,
      instructions: 'Answer as much as you like; this form exists to exercise paging, rendering and saving at scale.',
    },
    [...Array.from({ length: LARGE_SECTION_COUNT }, (_, i) => section(i + 1)), groupsSection()],
  );
}

/** Enough of the visibility rules to decide what the example answers reveal; conditions use the operators built above. */
function visibleGiven(visibility: Visibility, answers: SeedAnswer[]): boolean {
  if (visibility.rule !== 'conditional' || !Array.isArray(visibility.conditions)) return true;
  const conditions = visibility.conditions as VisibilityCondition[];
  const holds = (c: VisibilityCondition) => {
    const value = answers.find((a) => a.schema_key === c.schema_key && a.field_key === c.field_key)?.value ?? null;
    const answered = value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
    switch (c.operator) {
      case 'answered':
        return answered;
      case 'not_answered':
        return !answered;
      case 'equals':
        return value === c.value;
      case 'not_equals':
        return value !== c.value;
      case 'includes':
        return Array.isArray(value) && (value as unknown[]).includes(c.value);
    }
  };
  return visibility.match === 'any' ? conditions.some(holds) : conditions.every(holds);
}

/**
 * Answers for the first `sectionCount` sections, taken from each field's example (which the contract keeps
 * valid for its value_schema), plus two location items, the first with a nested vehicle base.
 */
export function largeContractSeedAnswers(
  contract: ContractTemplate,
  sectionCount: number,
): { answers: SeedAnswer[]; items: SeedItem[] } {
  const sectionKeys = new Set(Array.from({ length: sectionCount }, (_, i) => largeSectionKey(i + 1)));
  const answerable = contract.questions.filter(
    (q) => !q.is_repeatable && q.answer_shape !== 'file' && sectionKeys.has(q.section_key),
  );
  const all: SeedAnswer[] = answerable.flatMap((q) =>
    q.fields.map((f) => ({
      block_key: q.block_key,
      schema_key: q.schema_key,
      field_key: f.field_key,
      value: AnswerValue.parse(f.example),
    })),
  );
  // Answers to questions the other answers hide would never be submitted, so they are left out.
  const hidden = new Set(answerable.filter((q) => !visibleGiven(q.visibility, all)).map((q) => q.schema_key));
  const answers = all.filter((a) => !hidden.has(a.schema_key));
  const v = (schema_key: string, value: AnswerValue, field_key = 'value') => ({ schema_key, field_key, value });
  const items: SeedItem[] = [
    {
      block_key: 'ga',
      answers: [v('gaq1', 'North depot'), v('gaq2', 4_500), v('gaq5', true), v('gaq6', 40)],
      children: [
        {
          block_key: 'gb',
          answers: [
            v('gbq1', '1200 Harbor Blvd', 'line1'),
            v('gbq1', 'Oakland', 'city'),
            v('gbq1', '94607', 'postal_code'),
            v('gbq1', 'US', 'country'),
            v('gbq2', 12),
          ],
        },
      ],
    },
    { block_key: 'ga', answers: [v('gaq1', 'Riverside yard'), v('gaq2', 2_750.25), v('gaq5', false)] },
  ];
  return { answers, items };
}
