import type { AnswerValue } from '../portal/answers';
import type { Visibility } from '../portal/visibility';
import { isAnswered } from './answer-values';

/**
 * Question visibility (DESIGN.md §5). Fails open: a rule, match mode, operator or condition we cannot
 * reason about leaves the question visible, because wrongly hiding a question loses answers silently
 * while wrongly showing one costs a glance.
 */

/** Reads the current answer of a field; undefined when there is none. */
export type AnswerLookup = (schemaKey: string, fieldKey: string) => AnswerValue | undefined;
export type VisibilityCheck = (lookup: AnswerLookup) => boolean;
export interface VisibilityDependency {
  schema_key: string;
  field_key: string;
}

type Primitive = string | number | boolean | null;
type Test = (answer: unknown) => boolean;

interface Compiled {
  readonly check: VisibilityCheck;
  readonly dependencies: readonly VisibilityDependency[];
}

const ALWAYS: Compiled = Object.freeze({ check: () => true, dependencies: Object.freeze([]) });

const isPrimitive = (v: unknown): v is Primitive =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Deep equality of primitives; a list equals a list with the same items in the same order. */
function equalsTest(expected: unknown): Test | undefined {
  if (isPrimitive(expected)) return (answer) => answer === expected;
  if (Array.isArray(expected) && expected.every(isPrimitive)) {
    return (answer) =>
      Array.isArray(answer) && answer.length === expected.length && answer.every((item, i) => item === expected[i]);
  }
  return undefined;
}

/** The test of one condition's operator against its value; undefined when it cannot be reasoned about. */
function conditionTest(operator: unknown, value: unknown): Test | undefined {
  switch (operator) {
    case 'answered':
      return isAnswered;
    case 'not_answered':
      return (answer) => !isAnswered(answer);
    case 'equals': {
      // An unanswered field equals nothing, so not_equals below stays its exact negation.
      const equals = equalsTest(value);
      return equals && ((answer) => isAnswered(answer) && equals(answer));
    }
    case 'not_equals': {
      const equals = equalsTest(value);
      return equals && ((answer) => !isAnswered(answer) || !equals(answer));
    }
    case 'includes':
      if (!isPrimitive(value) || value === null) return undefined;
      return (answer) =>
        Array.isArray(answer)
          ? answer.includes(value)
          : typeof answer === 'string' && typeof value === 'string' && isAnswered(answer) && answer.includes(value);
    default:
      return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function compileUncached(visibility: Visibility): Compiled {
  // The schema keeps unknown rules (a loose object), so every field is checked here rather than trusted.
  const { rule, match, conditions } = visibility as Record<string, unknown>;
  if (rule !== 'conditional' || (match !== 'all' && match !== 'any')) return ALWAYS;
  if (!Array.isArray(conditions) || conditions.length === 0) return ALWAYS;
  const keys: VisibilityDependency[] = [];
  const tests: Test[] = [];
  for (const condition of conditions) {
    if (!isObject(condition)) return ALWAYS;
    const { schema_key, field_key, operator, value } = condition;
    if (typeof schema_key !== 'string' || typeof field_key !== 'string') return ALWAYS;
    const test = conditionTest(operator, value);
    if (test === undefined) return ALWAYS;
    keys.push({ schema_key, field_key });
    tests.push(test);
  }
  const holds = (lookup: AnswerLookup, i: number): boolean => {
    const key = keys[i] as VisibilityDependency;
    return (tests[i] as Test)(lookup(key.schema_key, key.field_key));
  };
  const check: VisibilityCheck =
    match === 'all'
      ? (lookup) => {
          for (let i = 0; i < tests.length; i++) if (!holds(lookup, i)) return false;
          return true;
        }
      : (lookup) => {
          for (let i = 0; i < tests.length; i++) if (holds(lookup, i)) return true;
          return false;
        };
  const unique = new Map(keys.map((k) => [JSON.stringify([k.schema_key, k.field_key]), k]));
  return { check, dependencies: Object.freeze([...unique.values()]) };
}

// Contracts are read once and kept, so their visibility objects make stable keys.
const cache = new WeakMap<object, Compiled>();

function compile(visibility: Visibility): Compiled {
  if (!isObject(visibility)) return ALWAYS;
  let compiled = cache.get(visibility);
  if (compiled === undefined) {
    compiled = compileUncached(visibility);
    cache.set(visibility, compiled);
  }
  return compiled;
}

/** A visibility rule turned into a function of the answers, for forms that re-check on every change. */
export function compileVisibility(visibility: Visibility): VisibilityCheck {
  return compile(visibility).check;
}

export function isVisible(visibility: Visibility, lookup: AnswerLookup): boolean {
  return compile(visibility).check(lookup);
}

/**
 * The fields a question's visibility reads, each once, so a form can subscribe to just those. Empty when
 * the question is always visible, including when it fails open.
 */
export function visibilityDependencies(visibility: Visibility): VisibilityDependency[] {
  return compile(visibility).dependencies.map((d) => ({ schema_key: d.schema_key, field_key: d.field_key }));
}
