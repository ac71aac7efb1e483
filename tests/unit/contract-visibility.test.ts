import { describe, expect, it } from 'vitest';
import { compileVisibility, isVisible, visibilityDependencies, type AnswerLookup } from '@/lib/contract';
import type { AnswerValue } from '@/lib/portal/answers';
import type { Visibility, VisibilityCondition } from '@/lib/portal/visibility';

/** A lookup over `schema_key.field_key` → value; missing keys give undefined. */
const answers =
  (values: Record<string, AnswerValue>): AnswerLookup =>
  (schemaKey, fieldKey) =>
    values[`${schemaKey}.${fieldKey}`];

const when = (operator: VisibilityCondition['operator'], value?: unknown): Visibility => ({
  rule: 'conditional',
  match: 'all',
  conditions: [{ schema_key: 'q', field_key: 'f', operator, ...(value === undefined ? {} : { value }) }],
});

const visibleWith = (visibility: Visibility, answer: AnswerValue | undefined): boolean =>
  isVisible(visibility, (schemaKey, fieldKey) => (schemaKey === 'q' && fieldKey === 'f' ? answer : undefined));

describe('rule always', () => {
  it('is visible whatever the answers', () => {
    expect(isVisible({ rule: 'always' }, answers({}))).toBe(true);
    expect(visibilityDependencies({ rule: 'always' })).toEqual([]);
  });
});

describe('equals', () => {
  it('compares primitives strictly', () => {
    expect(visibleWith(when('equals', 'yes'), 'yes')).toBe(true);
    expect(visibleWith(when('equals', 'yes'), 'Yes')).toBe(false);
    expect(visibleWith(when('equals', 5), 5)).toBe(true);
    expect(visibleWith(when('equals', 5), '5')).toBe(false);
    expect(visibleWith(when('equals', true), true)).toBe(true);
    expect(visibleWith(when('equals', false), false)).toBe(true);
    expect(visibleWith(when('equals', false), true)).toBe(false);
    expect(visibleWith(when('equals', 0), 0)).toBe(true);
  });

  it('compares a list answer element-wise with a list value', () => {
    expect(visibleWith(when('equals', ['a', 'b']), ['a', 'b'])).toBe(true);
    expect(visibleWith(when('equals', ['a', 'b']), ['b', 'a'])).toBe(false);
    expect(visibleWith(when('equals', ['a', 'b']), ['a'])).toBe(false);
    expect(visibleWith(when('equals', ['a', 'b']), ['a', 'b', 'c'])).toBe(false);
    expect(visibleWith(when('equals', 'a'), ['a'])).toBe(false);
    expect(visibleWith(when('equals', ['a']), 'a')).toBe(false);
  });

  it('an unanswered field equals nothing', () => {
    expect(visibleWith(when('equals', 'yes'), null)).toBe(false);
    expect(visibleWith(when('equals', 'yes'), undefined)).toBe(false);
    expect(visibleWith(when('equals', null), null)).toBe(false);
    expect(visibleWith(when('equals', ''), '')).toBe(false);
  });
});

describe('not_equals', () => {
  it('is the negation of equals', () => {
    expect(visibleWith(when('not_equals', 'yes'), 'yes')).toBe(false);
    expect(visibleWith(when('not_equals', 'yes'), 'no')).toBe(true);
    expect(visibleWith(when('not_equals', 5), '5')).toBe(true);
    expect(visibleWith(when('not_equals', ['a']), ['a'])).toBe(false);
    expect(visibleWith(when('not_equals', ['a']), ['a', 'b'])).toBe(true);
  });

  it('an unanswered field is not_equals any value', () => {
    expect(visibleWith(when('not_equals', 'yes'), null)).toBe(true);
    expect(visibleWith(when('not_equals', 'yes'), undefined)).toBe(true);
    expect(visibleWith(when('not_equals', null), null)).toBe(true);
    expect(visibleWith(when('not_equals', ''), '  ')).toBe(true);
  });
});

describe('includes', () => {
  it('finds a value in a list answer', () => {
    expect(visibleWith(when('includes', 'b'), ['a', 'b'])).toBe(true);
    expect(visibleWith(when('includes', 'c'), ['a', 'b'])).toBe(false);
    expect(visibleWith(when('includes', 2), [1, 2])).toBe(true);
    expect(visibleWith(when('includes', '2'), [1, 2])).toBe(false);
    expect(visibleWith(when('includes', true), [false, true])).toBe(true);
  });

  it('finds a substring in a text answer', () => {
    expect(visibleWith(when('includes', 'Ltd'), 'Acme Ltd')).toBe(true);
    expect(visibleWith(when('includes', 'ltd'), 'Acme Ltd')).toBe(false);
    expect(visibleWith(when('includes', 5), '15')).toBe(false);
  });

  it('is false for unanswered fields and other answer kinds', () => {
    expect(visibleWith(when('includes', 'a'), null)).toBe(false);
    expect(visibleWith(when('includes', 'a'), undefined)).toBe(false);
    expect(visibleWith(when('includes', 'a'), [])).toBe(false);
    expect(visibleWith(when('includes', 5), 5)).toBe(false);
    expect(visibleWith(when('includes', ' '), '   ')).toBe(false);
  });
});

describe('answered and not_answered', () => {
  it.each([
    [null, false],
    [undefined, false],
    ['', false],
    ['   ', false],
    [[], false],
    ['x', true],
    [0, true],
    [false, true],
    [['a'], true],
  ] as const)('answer %j → answered %s', (answer, answered) => {
    expect(visibleWith(when('answered'), answer as AnswerValue | undefined)).toBe(answered);
    expect(visibleWith(when('not_answered'), answer as AnswerValue | undefined)).toBe(!answered);
  });

  it('ignore a value given with them', () => {
    expect(visibleWith(when('answered', 'whatever'), 'x')).toBe(true);
  });
});

describe('match modes', () => {
  const conditions: VisibilityCondition[] = [
    { schema_key: 'business', field_key: 'type', operator: 'equals', value: 'limited_company' },
    { schema_key: 'business', field_key: 'vat_registered', operator: 'equals', value: true },
  ];
  const all: Visibility = { rule: 'conditional', match: 'all', conditions };
  const any: Visibility = { rule: 'conditional', match: 'any', conditions };
  const both = answers({ 'business.type': 'limited_company', 'business.vat_registered': true });
  const one = answers({ 'business.type': 'limited_company', 'business.vat_registered': false });
  const none = answers({ 'business.type': 'sole_trader' });

  it('all needs every condition', () => {
    expect(isVisible(all, both)).toBe(true);
    expect(isVisible(all, one)).toBe(false);
    expect(isVisible(all, none)).toBe(false);
  });

  it('any needs one condition', () => {
    expect(isVisible(any, both)).toBe(true);
    expect(isVisible(any, one)).toBe(true);
    expect(isVisible(any, none)).toBe(false);
  });

  it('reads answers by both schema_key and field_key', () => {
    const calls: string[] = [];
    isVisible(all, (schemaKey, fieldKey) => {
      calls.push(`${schemaKey}/${fieldKey}`);
      return undefined;
    });
    // `all` stops at the first failing condition.
    expect(calls).toEqual(['business/type']);
  });

  it('compileVisibility gives the same answers as isVisible and can be reused', () => {
    const check = compileVisibility(any);
    expect(check(both)).toBe(true);
    expect(check(none)).toBe(false);
    expect(check(one)).toBe(true);
  });
});

describe('fail open', () => {
  const lookup = answers({ 'q.f': 'no' });

  it('an unknown rule is visible', () => {
    expect(isVisible({ rule: 'when_the_moon_is_full' }, lookup)).toBe(true);
    expect(visibilityDependencies({ rule: 'when_the_moon_is_full' })).toEqual([]);
  });

  it('an unknown operator makes the whole question visible, even under all', () => {
    const visibility = {
      rule: 'conditional',
      match: 'all',
      conditions: [
        { schema_key: 'q', field_key: 'f', operator: 'equals', value: 'yes' },
        { schema_key: 'q', field_key: 'f', operator: 'matches_regex', value: '^n' },
      ],
    } as unknown as Visibility;
    expect(isVisible(visibility, lookup)).toBe(true);
    expect(visibilityDependencies(visibility)).toEqual([]);
  });

  it('an unknown match mode, missing or empty conditions are visible', () => {
    const base = { schema_key: 'q', field_key: 'f', operator: 'equals', value: 'yes' };
    for (const visibility of [
      { rule: 'conditional', match: 'most', conditions: [base] },
      { rule: 'conditional', match: 'any', conditions: [] },
      { rule: 'conditional', match: 'all' },
      { rule: 'conditional', match: 'all', conditions: 'nope' },
      { rule: 'conditional', match: 'all', conditions: [null] },
      { rule: 'conditional', match: 'all', conditions: [{ ...base, field_key: 7 }] },
    ]) {
      expect(isVisible(visibility as unknown as Visibility, lookup), JSON.stringify(visibility)).toBe(true);
    }
  });

  it('a value an operator cannot use is visible', () => {
    expect(visibleWith(when('equals', { a: 1 }), 'no')).toBe(true);
    expect(visibleWith(when('equals'), 'no')).toBe(true);
    expect(visibleWith(when('not_equals'), 'no')).toBe(true);
    expect(visibleWith(when('includes', ['a']), ['b'])).toBe(true);
    expect(visibleWith(when('includes', null), 'no')).toBe(true);
    expect(visibleWith(when('equals', [{ a: 1 }]), ['b'])).toBe(true);
  });
});

describe('visibilityDependencies', () => {
  it('lists each field read, once, in order', () => {
    const visibility: Visibility = {
      rule: 'conditional',
      match: 'any',
      conditions: [
        { schema_key: 'a', field_key: 'x', operator: 'answered' },
        { schema_key: 'b', field_key: 'y', operator: 'equals', value: 1 },
        { schema_key: 'a', field_key: 'x', operator: 'equals', value: 'z' },
      ],
    };
    expect(visibilityDependencies(visibility)).toEqual([
      { schema_key: 'a', field_key: 'x' },
      { schema_key: 'b', field_key: 'y' },
    ]);
  });

  it('keeps keys that only collide when naively joined apart', () => {
    const visibility: Visibility = {
      rule: 'conditional',
      match: 'any',
      conditions: [
        { schema_key: 'a.b', field_key: 'c', operator: 'answered' },
        { schema_key: 'a', field_key: 'b.c', operator: 'answered' },
      ],
    };
    expect(visibilityDependencies(visibility)).toHaveLength(2);
  });

  it('returns a fresh array the caller may change', () => {
    const visibility = when('answered');
    visibilityDependencies(visibility).push({ schema_key: 'x', field_key: 'y' });
    expect(visibilityDependencies(visibility)).toEqual([{ schema_key: 'q', field_key: 'f' }]);
  });
});
