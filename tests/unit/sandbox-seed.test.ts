import { describe, expect, it } from 'vitest';
import {
  ANSWER_SHAPES,
  ApplicationContract,
  ConditionalVisibility,
  ID_PATTERNS,
  type IdKind,
  KNOWN_KINDS,
  LIMITS,
  type AnswerValue,
  type Question,
  type QuestionField,
  type ValueSchema,
} from '@/lib/portal';
import { buildSeed } from '@/server/sandbox/seed';
import { contractOperations } from '../support/contract-operations';
import { CRITERIA_CONTRACT_VERSION, DEAL_CONTRACT_VERSION } from '@/server/sandbox/seed';
import type { ContractTemplate, SeedBusiness, SeedItem, SeedPipeline } from '@/server/sandbox/seed/types';

const seed = buildSeed();
const contracts = Object.values(seed.contracts);
const funding = seed.contracts[seed.default_contract_version];
const large = seed.contracts['large-1000-v1'];
const dealContract = seed.contracts[seed.default_deal_contract_version];

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

const wrap = (template: ContractTemplate) => {
  const base = 'https://sandbox.example/v1/client-intake-applications/ciappl_placeholder/';
  return {
    ...template,
    object: 'application_contract',
    answers_revision: 0,
    resource: { id: 'ciappl_placeholder', object: 'client_intake_application' },
    operations: contractOperations(base),
  };
};

/** Checks each identifier against the pattern of its kind, then (expectUnique) that none repeats; `seen` are taken already. */
function identifiers(seen: string[] = []) {
  const check = (value: string, kind: IdKind) => {
    expect(value).toMatch(ID_PATTERNS[kind]);
    seen.push(value);
  };
  return {
    check,
    pipelines(pipelines: readonly SeedPipeline[], pipelineKind: IdKind, stageKind: IdKind) {
      for (const p of pipelines) {
        check(p.id, pipelineKind);
        for (const s of p.stages) check(s.id, stageKind);
      }
    },
    expectUnique: () => expect(new Set(seen).size).toBe(seen.length),
  };
}

/* A small value-vs-schema check: types, enums, date format, and the simple bounds. */

const isValidDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

function valueErrors(value: unknown, schema: ValueSchema, path = 'value'): string[] {
  const errors: string[] = [];
  const type = schema.type;
  const typeOk =
    type === undefined ||
    (type === 'string' && typeof value === 'string') ||
    (type === 'integer' && Number.isInteger(value)) ||
    (type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'array' && Array.isArray(value));
  if (!typeOk) return [`${path}: ${JSON.stringify(value)} is not ${String(type)}`];
  if (schema.enum && !schema.enum.some((e) => e === value))
    errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'string') {
    if (value.length > LIMITS.answerStringMax) errors.push(`${path}: longer than the spec allows`);
    if (schema.format === 'date' && !isValidDate(value)) errors.push(`${path}: ${value} is not a date`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
      errors.push(`${path}: ${value} does not match ${schema.pattern}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${path}: too long`);
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: too short`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above maximum`);
    if (schema.multipleOf !== undefined) {
      const ratio = value / schema.multipleOf;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) errors.push(`${path}: not a multiple of ${schema.multipleOf}`);
    }
  }
  if (Array.isArray(value)) {
    if (value.length > LIMITS.answerArrayMaxItems) errors.push(`${path}: more items than the spec allows`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: too many items`);
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: too few items`);
    value.forEach((item, i) => {
      if (typeof item === 'string' && item.length > LIMITS.answerArrayStringMax) errors.push(`${path}[${i}]: too long`);
      if (schema.items) errors.push(...valueErrors(item, schema.items, `${path}[${i}]`));
    });
  }
  return errors;
}

/* A small visibility evaluator, to decide which required fields the submitted businesses must answer. */

type Lookup = (schema_key: string, field_key: string) => AnswerValue | undefined;

const isAnswered = (v: AnswerValue | undefined) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function isVisible(q: Question, lookup: Lookup): boolean {
  if (q.visibility.rule === 'always') return true;
  const vis = ConditionalVisibility.parse(q.visibility);
  const results = vis.conditions.map((c) => {
    const v = lookup(c.schema_key, c.field_key);
    switch (c.operator) {
      case 'answered':
        return isAnswered(v);
      case 'not_answered':
        return !isAnswered(v);
      case 'equals':
        return JSON.stringify(v ?? null) === JSON.stringify(c.value);
      case 'not_equals':
        return JSON.stringify(v ?? null) !== JSON.stringify(c.value);
      case 'includes':
        return Array.isArray(v) && (v as unknown[]).includes(c.value);
    }
  });
  return vis.match === 'all' ? results.every(Boolean) : results.some(Boolean);
}

/* Helpers over a contract. */

const byKey = (c: ContractTemplate) => new Map(c.questions.map((q) => [q.schema_key, q]));
const fieldOf = (q: Question | undefined, fieldKey: string): QuestionField | undefined =>
  q?.fields.find((f) => f.field_key === fieldKey);
const groupQuestions = (c: ContractTemplate, blockKey: string) =>
  c.questions.filter((q) => q.is_repeatable && q.block_key === blockKey);
const depthOf = (c: ContractTemplate, blockKey: string): number => {
  const g = c.repeatable_groups.find((x) => x.block_key === blockKey);
  return g?.parent_block_key ? 1 + depthOf(c, g.parent_block_key) : 1;
};

const KEY = /^[a-z0-9_]{1,64}$/;

describe.each(contracts.map((c) => [c.contract_version, c] as const))('contract %s', (_version, contract) => {
  const questions = byKey(contract);

  it('parses as an ApplicationContract once wrapped', () => {
    const result = ApplicationContract.safeParse(wrap(contract));
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('has unique keys that fit the limits', () => {
    const sectionKeys = contract.sections.map((s) => s.section_key);
    expect(new Set(sectionKeys).size).toBe(sectionKeys.length);
    expect(questions.size).toBe(contract.questions.length);
    const groupKeys = contract.repeatable_groups.map((g) => g.block_key);
    expect(new Set(groupKeys).size).toBe(groupKeys.length);
    for (const q of contract.questions) {
      expect(q.block_key).toMatch(KEY);
      expect(q.schema_key).toMatch(KEY);
      const fieldKeys = q.fields.map((f) => f.field_key);
      expect(new Set(fieldKeys).size, q.schema_key).toBe(fieldKeys.length);
      expect(fieldKeys.length, q.schema_key).toBeGreaterThan(0);
      if (!q.is_repeatable) {
        expect(q.block_key).toBe(q.schema_key);
        expect(groupKeys, `${q.schema_key} collides with a group`).not.toContain(q.block_key);
      }
    }
  });

  it('orders sections and questions in display order', () => {
    expect(contract.sections.map((s) => s.order)).toEqual(contract.sections.map((_, i) => i + 1));
    const sectionOrder = new Map(contract.sections.map((s) => [s.section_key, s.order]));
    const orders = contract.questions.map((q) => q.order);
    expect(new Set(orders).size).toBe(orders.length);
    const sorted = [...contract.questions].sort((a, b) => a.order - b.order);
    const sectionSequence = sorted.map((q) => must(sectionOrder.get(q.section_key), q.section_key));
    expect(sectionSequence).toEqual([...sectionSequence].sort((a, b) => a - b));
  });

  it('follows the per-kind conventions for shapes, operations, fields and value schemas', () => {
    for (const q of contract.questions) {
      const shape = q.kind === 'file' ? 'file' : q.kind.endsWith('_choice') ? 'selection_list' : 'field';
      expect(q.answer_shape, q.schema_key).toBe(shape);
      expect(q.answer_operations, q.schema_key).toEqual(
        shape === 'file' ? ['read', 'upload', 'delete'] : ['read', 'update'],
      );
      expect(typeof q.help_text === 'string' || q.help_text === null).toBe(true);
      if (q.kind !== 'address')
        expect(q.fields.map((f) => f.field_key)).toEqual([q.kind === 'file' ? 'files' : 'value']);
      for (const f of q.fields) {
        const schema = f.value_schema;
        for (const value of [...(schema.enum ?? []), ...(schema.items?.enum ?? [])]) {
          if (typeof value === 'string') {
            expect(value).toMatch(/^[a-z0-9_]+$/);
            expect(value.length).toBeLessThanOrEqual(LIMITS.allowedValueMax);
          }
        }
        if (q.kind === 'file') {
          expect(f.example).toBeNull();
          expect(schema).toMatchObject({ type: 'array', items: { type: 'string' } });
          expect(schema.maxItems).toBeGreaterThanOrEqual(1);
          expect(schema.maxItems).toBeLessThanOrEqual(10);
        } else {
          expect(valueErrors(f.example, schema), `${q.schema_key}.${f.field_key}`).toEqual([]);
        }
      }
      if (q.kind === 'multi_choice') expect(q.fields[0]?.value_schema.type).toBe('array');
      if (q.kind === 'single_choice') expect(q.fields[0]?.value_schema.enum?.length).toBeGreaterThan(1);
    }
  });

  it('places every question in an existing section and every repeatable question in its group', () => {
    const sectionKeys = new Set(contract.sections.map((s) => s.section_key));
    for (const q of contract.questions) {
      expect(sectionKeys.has(q.section_key), q.schema_key).toBe(true);
      const g = contract.repeatable_groups.find((x) => x.block_key === q.block_key);
      expect(q.is_repeatable, q.schema_key).toBe(g !== undefined);
      if (g) {
        expect(q.parent_block_key).toBe(g.parent_block_key);
        expect(q.section_key).toBe(g.section_key);
      } else expect(q.parent_block_key).toBeNull();
    }
    for (const g of contract.repeatable_groups) {
      expect(g.item_question_keys).toEqual(groupQuestions(contract, g.block_key).map((q) => q.schema_key));
      expect(g.item_question_keys.length).toBeGreaterThan(0);
      expect(g.item_operations).toEqual(['list', 'create', 'update', 'delete']);
      if (g.parent_block_key !== null) {
        expect(contract.repeatable_groups.some((p) => p.block_key === g.parent_block_key)).toBe(true);
      }
      if (g.min_items !== null && g.max_items !== null) expect(g.min_items).toBeLessThanOrEqual(g.max_items);
    }
  });

  it('has groups nested two deep (the deal contract: one level; the criteria contract: none)', () => {
    const depths = contract.repeatable_groups.map((g) => depthOf(contract, g.block_key));
    const expected = { [DEAL_CONTRACT_VERSION]: 1, [CRITERIA_CONTRACT_VERSION]: 0 }[contract.contract_version] ?? 2;
    expect(Math.max(0, ...depths)).toBe(expected);
  });

  it('references only existing fields in a permitted scope from visibility conditions', () => {
    for (const q of contract.questions) {
      if (q.visibility.rule === 'always') continue;
      const vis = ConditionalVisibility.parse(q.visibility);
      for (const c of vis.conditions) {
        const target = questions.get(c.schema_key);
        expect(target, `${q.schema_key} -> ${c.schema_key}`).toBeDefined();
        expect(c.schema_key).not.toBe(q.schema_key);
        const field = must(fieldOf(target, c.field_key), `${c.schema_key}.${c.field_key}`);
        expect(target?.answer_shape).not.toBe('file');
        // Top-level questions are visible everywhere; repeatable ones only within their own group.
        if (target?.is_repeatable) expect(target.block_key, q.schema_key).toBe(q.block_key);
        if (c.operator === 'equals' || c.operator === 'not_equals')
          expect(valueErrors(c.value, field.value_schema), q.schema_key).toEqual([]);
        if (c.operator === 'includes') expect(field.value_schema.items?.enum).toContain(c.value);
        if (c.operator === 'answered' || c.operator === 'not_answered') expect(c.value).toBeUndefined();
      }
    }
  });
});

describe('funding contract', () => {
  const contract = must(funding, 'funding contract');

  it('is the default and uses every kind and answer shape', () => {
    expect(contract.contract_version).toBe('funding-intake-2026.11');
    expect(new Set(contract.questions.map((q) => q.kind))).toEqual(new Set(KNOWN_KINDS));
    expect(new Set(contract.questions.map((q) => q.answer_shape))).toEqual(new Set(ANSWER_SHAPES));
  });

  it('uses each visibility operator the brief asks for, on at least three questions', () => {
    const conditional = contract.questions.filter((q) => q.visibility.rule === 'conditional');
    expect(conditional.length).toBeGreaterThanOrEqual(3);
    const operators = new Set(
      conditional.flatMap((q) => ConditionalVisibility.parse(q.visibility).conditions.map((c) => c.operator)),
    );
    for (const op of ['equals', 'includes', 'answered', 'not_answered'] as const) expect(operators).toContain(op);
  });

  it('has one multi-field address question with the six address lines', () => {
    const address = contract.questions.find((q) => q.schema_key === 'business_address');
    expect(address?.kind).toBe('address');
    expect(address?.fields.map((f) => f.field_key)).toEqual([
      'line1',
      'line2',
      'city',
      'region',
      'postal_code',
      'country',
    ]);
  });

  it('has owners (1-4) with nested owner addresses (0-3) and assets (0-10)', () => {
    const groups = Object.fromEntries(contract.repeatable_groups.map((g) => [g.block_key, g]));
    expect(groups.owners).toMatchObject({ parent_block_key: null, min_items: 1, max_items: 4 });
    expect(groups.owner_addresses).toMatchObject({ parent_block_key: 'owners', min_items: 0, max_items: 3 });
    expect(groups.assets).toMatchObject({ parent_block_key: null, min_items: 0, max_items: 10 });
  });

  it('has a required declaration that only "yes" satisfies', () => {
    const decl = contract.questions.find(
      (q) => q.kind === 'yes_no' && q.is_required && JSON.stringify(q.fields[0]?.value_schema.enum) === '[true]',
    );
    expect(decl?.fields[0]?.value_schema).toEqual({ type: 'boolean', enum: [true] });
  });
});

describe('large contract', () => {
  const contract = must(large, 'large contract');

  it('has at least 1,000 fields across at least 40 sections, mixing every kind', () => {
    expect(contract.questions.reduce((n, q) => n + q.fields.length, 0)).toBeGreaterThanOrEqual(1_000);
    expect(contract.sections.length).toBeGreaterThanOrEqual(40);
    expect(new Set(contract.questions.map((q) => q.kind))).toEqual(new Set(KNOWN_KINDS));
    expect(contract.questions.some((q) => q.visibility.rule === 'conditional')).toBe(true);
    expect(contract.repeatable_groups).toHaveLength(2);
  });
});

describe('demo portal', () => {
  const stageIds = new Map(seed.business_pipelines.map((p) => [p.id, new Set(p.stages.map((s) => s.id))]));
  const tagIds = new Set(seed.tags.map((t) => t.id));

  it('matches the identifier patterns and has unique identifiers', () => {
    const ids = identifiers();
    ids.pipelines(seed.business_pipelines, 'businessPipeline', 'businessStage');
    for (const t of seed.tags) ids.check(t.id, 'personTag');
    for (const b of seed.businesses) {
      ids.check(b.id, 'business');
      ids.check(b.application_id, 'application');
      for (const p of b.people) ids.check(p.id, 'person');
    }
    ids.expectUnique();
  });

  it('has the portal, pipelines and defaults the sandbox starts from', () => {
    expect(seed.portal).toEqual({ id: 'portal_demo', name: 'Northwind Capital (demo)' });
    expect(seed.channel_slugs.length).toBeGreaterThan(0);
    expect(seed.business_pipelines.map((p) => p.name)).toEqual(['Onboarding', 'Renewals']);
    expect(seed.business_pipelines[0]?.stages.map((s) => s.name)).toEqual([
      'New lead',
      'Qualifying',
      'Application in progress',
      'Submitted',
      'Under review',
      'Approved',
      'Declined',
    ]);
    expect(seed.default_business_stage).toEqual({ pipeline_id: 'bpipe_onboarding', stage_id: 'bstg_newlead' });
    expect(seed.contracts[seed.default_contract_version]).toBeDefined();
    for (const [version, c] of Object.entries(seed.contracts)) expect(c.contract_version).toBe(version);
  });

  it('places each business in a stage of its pipeline, with one primary person and known tags', () => {
    for (const b of seed.businesses) {
      expect(stageIds.get(b.pipeline_id)?.has(b.stage_id), b.id).toBe(true);
      expect(seed.contracts[b.contract_version], b.id).toBeDefined();
      expect(b.people.length, b.id).toBeGreaterThanOrEqual(1);
      expect(b.people.length, b.id).toBeLessThanOrEqual(3);
      expect(
        b.people.filter((p) => p.is_primary),
        b.id,
      ).toHaveLength(1);
      for (const p of b.people) for (const t of p.tag_ids) expect(tagIds.has(t), `${p.id} ${t}`).toBe(true);
    }
  });

  it('covers the cases the demo is for', () => {
    const bs = seed.businesses;
    expect(bs.filter((b) => b.is_sample)).toHaveLength(1);
    expect(bs.some((b) => b.name === null)).toBe(true);
    expect(bs.some((b) => b.contract_version === 'large-1000-v1' && b.name?.includes('(large form)'))).toBe(true);
    expect(bs.some((b) => b.submitted)).toBe(true);
    expect(bs.some((b) => !b.submitted && b.items.some((i) => (i.children ?? []).length > 0))).toBe(true);
    expect(new Set(bs.map((b) => b.pipeline_id))).toEqual(new Set(['bpipe_onboarding', 'bpipe_renewals']));
    expect(new Set(bs.map((b) => b.created_minutes_ago)).size).toBe(bs.length);
  });

  // Deal applications are seeded like intake applications, so the same checks apply to them.
  describe.each([...seed.businesses, ...seed.deals].map((b) => [b.id, b] as const))('%s', (_id, b) => {
    const contract = must(seed.contracts[b.contract_version], b.contract_version);
    const questions = byKey(contract);
    const top = new Map(b.answers.map((a) => [`${a.schema_key}\u0000${a.field_key}`, a.value]));
    const topLookup: Lookup = (s, f) => top.get(`${s}\u0000${f}`);

    it('seeds valid answers to existing, visible, non-repeatable, non-file fields', () => {
      const seen = new Set<string>();
      for (const a of b.answers) {
        const q = questions.get(a.schema_key);
        const where = `${a.schema_key}.${a.field_key}`;
        expect(q, where).toBeDefined();
        expect(q?.is_repeatable, where).toBe(false);
        expect(q?.answer_shape, where).not.toBe('file');
        expect(a.block_key, where).toBe(q?.block_key);
        const field = must(fieldOf(q, a.field_key), where);
        expect(valueErrors(a.value, field.value_schema), where).toEqual([]);
        expect(isVisible(must(q, where), topLookup), where).toBe(true);
        expect(seen.has(where), `${where} twice`).toBe(false);
        seen.add(where);
      }
    });

    it('seeds items of existing groups, nested under their parent group', () => {
      const checkItems = (items: SeedItem[], parent: string | null) => {
        const counts = new Map<string, number>();
        for (const item of items) {
          const g = contract.repeatable_groups.find((x) => x.block_key === item.block_key);
          expect(g, item.block_key).toBeDefined();
          expect(g?.parent_block_key, item.block_key).toBe(parent);
          counts.set(item.block_key, (counts.get(item.block_key) ?? 0) + 1);
          const itemValues = new Map(item.answers.map((a) => [`${a.schema_key}\u0000${a.field_key}`, a.value]));
          const lookup: Lookup = (s, f) =>
            questions.get(s)?.is_repeatable ? itemValues.get(`${s}\u0000${f}`) : topLookup(s, f);
          for (const a of item.answers) {
            const where = `${item.block_key}/${a.schema_key}.${a.field_key}`;
            const q = must(questions.get(a.schema_key), where);
            expect(q.block_key, where).toBe(item.block_key);
            expect(q.answer_shape, where).not.toBe('file');
            expect(valueErrors(a.value, must(fieldOf(q, a.field_key), where).value_schema), where).toEqual([]);
            expect(isVisible(q, lookup), where).toBe(true);
          }
          checkItems(item.children ?? [], item.block_key);
        }
        for (const [key, n] of counts) {
          const max = contract.repeatable_groups.find((x) => x.block_key === key)?.max_items;
          if (max !== null && max !== undefined) expect(n, key).toBeLessThanOrEqual(max);
        }
      };
      checkItems(b.items, null);
    });

    // Registered only for submitted businesses, so nothing shows as skipped.
    if (b.submitted) {
      it('answers every required visible field and satisfies min_items', () => {
        expect(missingRequired(contract, b)).toEqual([]);
      });
    }
  });
});

/** Required, visible fields left unanswered, at the top level and in every item (recursively). */
function missingRequired(contract: ContractTemplate, b: Pick<SeedBusiness, 'answers' | 'items'>): string[] {
  const questions = byKey(contract);
  const missing: string[] = [];
  const top = new Map(b.answers.map((a) => [`${a.schema_key}\u0000${a.field_key}`, a.value]));
  const topLookup: Lookup = (s, f) => top.get(`${s}\u0000${f}`);

  const checkQuestions = (qs: Question[], lookup: Lookup, where: string) => {
    for (const q of qs) {
      if (!q.is_required || q.answer_shape === 'file' || !isVisible(q, lookup)) continue;
      for (const f of q.fields)
        if (f.is_required && !isAnswered(lookup(q.schema_key, f.field_key)))
          missing.push(`${where}${q.schema_key}.${f.field_key}`);
    }
  };
  const checkGroups = (parent: string | null, items: SeedItem[], lookupOutside: Lookup, where: string) => {
    for (const g of contract.repeatable_groups.filter((x) => x.parent_block_key === parent)) {
      const mine = items.filter((i) => i.block_key === g.block_key);
      if (g.min_items !== null && mine.length < g.min_items) missing.push(`${where}${g.block_key}: min_items`);
      mine.forEach((item, n) => {
        const values = new Map(item.answers.map((a) => [`${a.schema_key}\u0000${a.field_key}`, a.value]));
        const lookup: Lookup = (s, f) =>
          questions.get(s)?.block_key === g.block_key ? values.get(`${s}\u0000${f}`) : lookupOutside(s, f);
        const here = `${where}${g.block_key}[${n}]/`;
        checkQuestions(groupQuestions(contract, g.block_key), lookup, here);
        checkGroups(g.block_key, item.children ?? [], topLookup, here);
      });
    }
  };

  checkQuestions(
    contract.questions.filter((q) => !q.is_repeatable),
    topLookup,
    '',
  );
  checkGroups(null, b.items, topLookup, '');
  // Files cannot be seeded, so a required file question would make a seeded submission a lie.
  for (const q of contract.questions)
    if (q.answer_shape === 'file' && q.is_required) missing.push(`${q.schema_key}: file`);
  return missing;
}

describe('deal contract', () => {
  const contract = must(dealContract, 'deal contract');
  const fields = contract.questions.flatMap((q) => q.fields);

  it('is the lender application the deals get, with four sections and 15-25 fields', () => {
    expect(seed.default_deal_contract_version).toBe(DEAL_CONTRACT_VERSION);
    expect(contract.contract_version).toBe(DEAL_CONTRACT_VERSION);
    expect(contract.application_name).toBe('Lender application');
    expect(contract.sections.map((s) => s.section_key)).toEqual(['facility', 'borrower', 'directors', 'documents']);
    expect(fields.length).toBeGreaterThanOrEqual(15);
    expect(fields.length).toBeLessThanOrEqual(25);
  });

  it('parses as the contract of a deal application once wrapped', () => {
    const wrapped = { ...wrap(contract), resource: { id: 'dapp_placeholder', object: 'deal_application' } };
    expect(ApplicationContract.safeParse(wrapped).error?.issues ?? []).toEqual([]);
  });

  it('has a conditional question, one repeatable group of directors and one file question', () => {
    const conditional = contract.questions.filter((q) => q.visibility.rule === 'conditional');
    expect(conditional.map((q) => q.schema_key)).toEqual(['security_description']);
    expect(conditional[0]?.visibility).toEqual({
      rule: 'conditional',
      match: 'all',
      conditions: [{ schema_key: 'security_offered', field_key: 'value', operator: 'equals', value: true }],
    });
    expect(contract.repeatable_groups).toHaveLength(1);
    expect(contract.repeatable_groups[0]).toMatchObject({ block_key: 'directors', parent_block_key: null, min_items: 1, max_items: 6 });
    const files = contract.questions.filter((q) => q.answer_shape === 'file');
    expect(files.map((q) => [q.schema_key, q.is_required])).toEqual([['management_accounts', false]]);
  });
});

describe('demo deals', () => {
  const businesses = new Map(seed.businesses.map((b) => [b.id, b]));
  const recipients = new Set(seed.recipients.map((r) => r.id));
  const pipeline = must(seed.deal_pipelines[0], 'deal pipeline');

  it('matches the identifier patterns and has unique identifiers', () => {
    const ids = identifiers(seed.businesses.map((b) => b.application_id));
    ids.pipelines(seed.deal_pipelines, 'dealPipeline', 'dealStage');
    for (const r of seed.recipients) ids.check(r.id, 'recipient');
    for (const d of seed.deals) {
      ids.check(d.id, 'deal');
      ids.check(d.application_id, 'dealApplication');
    }
    ids.expectUnique();
  });

  it('has the Funding deals pipeline, closing with Won and Lost, and about thirty recipients (the funders)', () => {
    expect(seed.deal_pipelines.map((p) => [p.id, p.name])).toEqual([['dpipe_funding', 'Funding deals']]);
    expect(pipeline.stages.map((s) => [s.name, s.outcome ?? null])).toEqual([
      ['Draft', null],
      ['Submitted to recipient', null],
      ['In review', null],
      ['Offer made', null],
      ['Won', 'won'],
      ['Lost', 'lost'],
    ]);
    expect(seed.recipients.length).toBeGreaterThanOrEqual(25);
    expect(seed.recipients.length).toBeLessThanOrEqual(35);
    expect(seed.recipients.map((r) => r.id)).toEqual(seed.funders.map((f) => f.recipient_id));
    expect(new Set(seed.recipients.map((r) => r.name)).size).toBe(seed.recipients.length);
  });

  it('places each deal of a seeded business in a stage, after the business was created', () => {
    for (const d of seed.deals) {
      const b = must(businesses.get(d.business_id), d.business_id);
      expect(d.created_minutes_ago, d.id).toBeLessThan(b.created_minutes_ago);
      expect(d.pipeline_id).toBe(pipeline.id);
      expect(pipeline.stages.some((s) => s.id === d.stage_id), d.id).toBe(true);
      expect(d.contract_version).toBe(DEAL_CONTRACT_VERSION);
      if (d.recipient_id !== null) expect(recipients.has(d.recipient_id), d.id).toBe(true);
      // A deal past Draft has gone to its lender, so its application was submitted.
      expect(d.submitted, d.id).toBe(d.stage_id !== 'dstg_draft');
    }
    expect(new Set(seed.deals.map((d) => d.created_minutes_ago)).size).toBe(seed.deals.length);
  });

  it('covers the cases the demo is for', () => {
    const ds = seed.deals;
    expect(ds.filter((d) => d.recipient_id === null)).toHaveLength(1);
    expect(ds.filter((d) => d.recipient_id !== null).length).toBeGreaterThanOrEqual(3);
    expect(ds.filter((d) => d.is_sample).map((d) => businesses.get(d.business_id)?.is_sample)).toEqual([true]);
    expect(ds.some((d) => !d.submitted && d.items.length > 0)).toBe(true);
    expect(new Set(ds.map((d) => d.stage_id)).size).toBeGreaterThanOrEqual(4);
    // Some business has more than one deal, so the business_id filter has something to narrow.
    expect(ds.length).toBeGreaterThan(new Set(ds.map((d) => d.business_id)).size);
  });
});

describe('buildSeed', () => {
  it('is deterministic', () => {
    expect(buildSeed()).toEqual(buildSeed());
    expect(JSON.stringify(buildSeed())).toBe(JSON.stringify(seed));
  });

  it('hands out a fresh copy each time', () => {
    const first = buildSeed();
    const firstAnswer = must(first.businesses.find((b) => b.answers.length > 0)?.answers[0], 'an answer');
    firstAnswer.value = 'changed';
    const arrayAnswer = must(
      first.businesses.flatMap((b) => b.answers).find((a) => Array.isArray(a.value)),
      'an array answer',
    );
    (arrayAnswer.value as string[]).push('changed');
    must(first.contracts[first.default_contract_version], 'funding').questions.pop();
    expect(buildSeed()).toEqual(seed);
  });
});
