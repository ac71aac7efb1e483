import { LIMITS } from '../portal/limits';
import type { ValueSchema } from '../portal/value-schema';
import { findUnsafeText } from './text-hygiene';
import { formatCheck, type FormatCheck } from './value-formats';
import { MESSAGES, typeMessage } from './value-messages';

/**
 * Answer values checked against value_schema (DESIGN.md §4-5) and the spec's limits (§8).
 * Compiled once per field, because the form runs it on every keystroke of 1,000-field contracts and the
 * sandbox on every write: the valid path allocates nothing and returns one shared, frozen empty array.
 */

type ValueIssueCode =
  | 'type'
  | 'enum'
  | 'format'
  | 'min_length'
  | 'max_length'
  | 'pattern'
  | 'minimum'
  | 'maximum'
  | 'multiple_of'
  | 'min_items'
  | 'max_items'
  | 'too_long'
  | 'too_many_items'
  | 'item_too_long'
  | 'unsafe_text'
  | 'unsafe_number';

export interface ValueIssue {
  readonly code: ValueIssueCode;
  /** Short and user-facing; for an item of a list it starts with "Item N: " (N counted from 1). */
  readonly message: string;
  /** For an issue about one item of a list, its index (from 0). */
  readonly item?: number;
}

/** Readonly because the "no issues" answer is one shared array. */
export type ValueValidator = (value: unknown) => readonly ValueIssue[];

type ItemSchema = NonNullable<ValueSchema['items']>;
type Scalar = string | number | boolean;

const NO_ISSUES: readonly ValueIssue[] = Object.freeze([]);

const STRING = 1;
const INTEGER = 2;
const NUMBER = 4;
const BOOLEAN = 8;
const ARRAY = 16;
const NULL = 32;
const TYPE_BITS: Readonly<Record<string, number>> = {
  string: STRING,
  integer: INTEGER,
  number: NUMBER,
  boolean: BOOLEAN,
  array: ARRAY,
  null: NULL,
};
const SCALARS = STRING | INTEGER | NUMBER | BOOLEAN;

/** Everything one schema level needs at check time, worked out once. Absent keywords are undefined. */
interface ScalarRules {
  /** Bits of the accepted types; 0 when the schema names none, so any answer shape passes. */
  readonly mask: number;
  readonly typeIssue: ValueIssue;
  readonly choices: ReadonlySet<unknown> | undefined;
  readonly choiceIssue: ValueIssue;
  /** The spec's length limit for this level (whole answers or list items) and its issue. */
  readonly limit: number;
  readonly limitIssue: ValueIssue;
  readonly minLength: number | undefined;
  readonly minLengthIssue: ValueIssue;
  readonly maxLength: number | undefined;
  readonly maxLengthIssue: ValueIssue;
  readonly format: FormatCheck | undefined;
  readonly formatIssue: ValueIssue;
  readonly pattern: RegExp | undefined;
  readonly patternIssue: ValueIssue;
  readonly minimum: number | undefined;
  readonly minimumIssue: ValueIssue;
  readonly maximum: number | undefined;
  readonly maximumIssue: ValueIssue;
  readonly multipleOf: number | undefined;
  readonly multipleOfIssue: ValueIssue;
}

const issue = (code: ValueIssueCode, message: string): ValueIssue => Object.freeze({ code, message });
// Placeholder for keywords a schema leaves out; never reported because its keyword's bound is undefined.
const UNUSED = issue('type', '');

const ANY_ANSWER = issue('type', MESSAGES.anyAnswer);
const NOT_FINITE = issue('type', MESSAGES.finiteNumber);
const MIXED_ITEMS = issue('type', MESSAGES.mixedItems);
const TOO_MANY_ITEMS = issue('too_many_items', MESSAGES.maxItems(LIMITS.answerArrayMaxItems, false));
const UNSAFE_NUMBER = issue('unsafe_number', MESSAGES.unsafeNumber);

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

// The schema is typed, but in the browser it may come straight from JSON: every keyword is read defensively.
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

function typeNames(type: unknown): string[] {
  const names = Array.isArray(type) ? type : [type];
  return names.filter((t): t is string => typeof t === 'string' && Object.hasOwn(TYPE_BITS, t));
}

function compilePattern(pattern: unknown): RegExp | undefined {
  if (typeof pattern !== 'string') return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // A contract's broken pattern must not take the whole form down; the upstream stays the judge.
    return undefined;
  }
}

function compileRules(schema: ItemSchema, enumValues: unknown, limit: number, limitIssue: ValueIssue): ScalarRules {
  const types = typeNames(schema.type);
  const mask = types.reduce((bits, t) => bits | (TYPE_BITS[t] ?? 0), 0);
  const choices = Array.isArray(enumValues)
    ? new Set<unknown>(enumValues.filter((v) => isScalar(v) && (typeof v !== 'number' || Number.isFinite(v))))
    : undefined;
  const format = typeof schema.format === 'string' ? formatCheck(schema.format) : undefined;
  const minLength = count(schema.minLength);
  const maxLength = count(schema.maxLength);
  const minimum = finite(schema.minimum);
  const maximum = finite(schema.maximum);
  const step = finite(schema.multipleOf);
  const multipleOf = step !== undefined && step > 0 ? step : undefined;
  return {
    mask,
    typeIssue: mask === 0 ? ANY_ANSWER : issue('type', typeMessage(types)),
    choices,
    choiceIssue: issue('enum', choices?.size === 0 ? MESSAGES.noChoices : MESSAGES.choice),
    limit,
    limitIssue,
    minLength,
    minLengthIssue: minLength === undefined ? UNUSED : issue('min_length', MESSAGES.minLength(minLength)),
    maxLength,
    maxLengthIssue: maxLength === undefined ? UNUSED : issue('max_length', MESSAGES.maxLength(maxLength)),
    format,
    formatIssue: format === undefined ? UNUSED : issue('format', MESSAGES.format[schema.format as string] ?? ''),
    pattern: compilePattern(schema.pattern),
    patternIssue: issue('pattern', MESSAGES.pattern),
    minimum,
    minimumIssue: minimum === undefined ? UNUSED : issue('minimum', MESSAGES.minimum(minimum)),
    maximum,
    maximumIssue: maximum === undefined ? UNUSED : issue('maximum', MESSAGES.maximum(maximum)),
    multipleOf,
    multipleOfIssue: multipleOf === undefined ? UNUSED : issue('multiple_of', MESSAGES.multipleOf(multipleOf)),
  };
}

/** Code points, not UTF-16 units, as JSON Schema counts them; stops counting once `stopAt` is reached. */
export function codePointCount(text: string, stopAt = Infinity): number {
  let points = 0;
  for (let i = 0; i < text.length && points < stopAt; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    points++;
  }
  return points;
}

const codePointsAtLeast = (text: string, enough: number) => codePointCount(text, enough) >= enough;

/**
 * 0.1 + 0.2 is not a multiple of 0.1 in binary floating point, so the quotient only has to be within a few
 * parts per trillion of a whole number: far below anything a person types, far above rounding noise.
 */
function isMultipleOf(value: number, step: number): boolean {
  const quotient = value / step;
  // 1e308 / 0.01 overflows: no tolerance can vouch for a quotient that is not even a number.
  if (!Number.isFinite(quotient)) return false;
  return Math.abs(quotient - Math.round(quotient)) <= Math.max(1e-9, Math.abs(quotient) * 1e-12);
}

const add = (issues: ValueIssue[] | undefined, found: ValueIssue): ValueIssue[] =>
  issues === undefined ? [found] : (issues.push(found), issues);

function typeMatches(mask: number, value: Scalar): boolean {
  if (mask === 0) return true;
  if (typeof value === 'string') return (mask & STRING) !== 0;
  if (typeof value === 'boolean') return (mask & BOOLEAN) !== 0;
  return (mask & NUMBER) !== 0 || ((mask & INTEGER) !== 0 && Number.isInteger(value));
}

function checkString(rules: ScalarRules, text: string): ValueIssue[] | undefined {
  // Limits count UTF-16 units, as the zod answer schemas do: the stricter reading the upstream surely accepts.
  if (text.length > rules.limit) return [rules.limitIssue];
  const unsafe = findUnsafeText(text);
  if (unsafe !== null) return [issue('unsafe_text', unsafe.message)];
  let issues: ValueIssue[] | undefined;
  // Code points never outnumber UTF-16 units, so the plain length settles most cases without counting.
  const { minLength, maxLength } = rules;
  if (minLength !== undefined && (text.length < minLength || !codePointsAtLeast(text, minLength))) {
    issues = add(issues, rules.minLengthIssue);
  }
  if (maxLength !== undefined && text.length > maxLength && codePointsAtLeast(text, maxLength + 1)) {
    issues = add(issues, rules.maxLengthIssue);
  }
  if (rules.format !== undefined && !rules.format(text)) issues = add(issues, rules.formatIssue);
  if (rules.pattern !== undefined && !rules.pattern.test(text)) issues = add(issues, rules.patternIssue);
  return issues;
}

function checkNumber(rules: ScalarRules, n: number): ValueIssue[] | undefined {
  // Beyond 2^53 doubles skip whole numbers: 9007199254740993 would be stored as …992 without a word.
  if (Math.abs(n) > Number.MAX_SAFE_INTEGER) return [UNSAFE_NUMBER];
  let issues: ValueIssue[] | undefined;
  if (rules.minimum !== undefined && n < rules.minimum) issues = add(issues, rules.minimumIssue);
  if (rules.maximum !== undefined && n > rules.maximum) issues = add(issues, rules.maximumIssue);
  if (rules.multipleOf !== undefined && !isMultipleOf(n, rules.multipleOf)) {
    issues = add(issues, rules.multipleOfIssue);
  }
  return issues;
}

/** Issues of one string, number or boolean; undefined when it passes. */
function checkScalar(rules: ScalarRules, value: Scalar): ValueIssue[] | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return [rules.mask === 0 ? NOT_FINITE : rules.typeIssue];
  // Later keywords would only add noise to a value of the wrong type or outside the choices.
  if (!typeMatches(rules.mask, value)) return [rules.typeIssue];
  if (rules.choices !== undefined && !rules.choices.has(value)) return [rules.choiceIssue];
  if (typeof value === 'string') return checkString(rules, value);
  if (typeof value === 'number') return checkNumber(rules, value);
  return undefined;
}

const itemIssue = (index: number, found: ValueIssue): ValueIssue =>
  Object.freeze({ code: found.code, message: MESSAGES.item(index, found.message), item: index });

interface ArrayRules {
  readonly items: ScalarRules;
  /** Issue for an item that is not a string, number or boolean (the spec allows nothing else in a list). */
  readonly notScalarIssue: ValueIssue;
  readonly minItems: number | undefined;
  readonly minItemsIssue: ValueIssue;
  readonly maxItems: number | undefined;
  readonly maxItemsIssue: ValueIssue;
}

function compileArrayRules(schema: ValueSchema): ArrayRules {
  const itemSchema: ItemSchema = typeof schema.items === 'object' && schema.items !== null ? schema.items : {};
  // An enum on a list schema has to mean its choices: no string or number could ever equal a whole list.
  const enumValues = itemSchema.enum ?? schema.enum;
  const items = compileRules(
    itemSchema,
    enumValues,
    LIMITS.answerArrayStringMax,
    issue('item_too_long', MESSAGES.maxLength(LIMITS.answerArrayStringMax)),
  );
  const choices = items.choices !== undefined;
  const minItems = count(schema.minItems);
  const maxItems = count(schema.maxItems);
  return {
    items,
    notScalarIssue: (items.mask & SCALARS) === 0 ? issue('type', MESSAGES.scalarItem) : items.typeIssue,
    minItems,
    minItemsIssue: minItems === undefined ? UNUSED : issue('min_items', MESSAGES.minItems(minItems, choices)),
    maxItems,
    maxItemsIssue: maxItems === undefined ? UNUSED : issue('max_items', MESSAGES.maxItems(maxItems, choices)),
  };
}

function checkArray(rules: ArrayRules, list: readonly unknown[]): ValueIssue[] | undefined {
  // Past the spec's limit the upstream refuses the list outright; checking 10,000 items would only burn time.
  if (list.length > LIMITS.answerArrayMaxItems) return [TOO_MANY_ITEMS];
  // An empty enum lets nothing be chosen, so not even an empty list is an answer (null is the only one).
  if (rules.items.choices?.size === 0) return [rules.items.choiceIssue];
  let issues: ValueIssue[] | undefined;
  if (rules.minItems !== undefined && list.length < rules.minItems) issues = add(issues, rules.minItemsIssue);
  if (rules.maxItems !== undefined && list.length > rules.maxItems) issues = add(issues, rules.maxItemsIssue);
  let kind: string | undefined;
  let mixed = false;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isScalar(item)) {
      issues = add(issues, itemIssue(i, rules.notScalarIssue));
      continue;
    }
    // The spec's list is of strings, or of numbers, or of booleans: never a mix.
    if (kind === undefined) kind = typeof item;
    else if (!mixed && kind !== typeof item) {
      mixed = true;
      issues = add(issues, MIXED_ITEMS);
    }
    const found = checkScalar(rules.items, item);
    if (found !== undefined) for (const f of found) issues = add(issues, itemIssue(i, f));
  }
  return issues;
}

/** A validator for one field's value_schema. null (unanswered) always passes: required-ness is separate. */
export function compileValueSchema(schema: ValueSchema): ValueValidator {
  const rules = compileRules(
    schema,
    schema.enum,
    LIMITS.answerStringMax,
    issue('too_long', MESSAGES.maxLength(LIMITS.answerStringMax)),
  );
  const acceptsArray = rules.mask === 0 || (rules.mask & ARRAY) !== 0;
  const arrayRules = acceptsArray ? compileArrayRules(schema) : undefined;
  return (value) => {
    if (value === null) return NO_ISSUES;
    if (isScalar(value)) return checkScalar(rules, value) ?? NO_ISSUES;
    if (Array.isArray(value)) {
      return arrayRules === undefined ? [rules.typeIssue] : (checkArray(arrayRules, value) ?? NO_ISSUES);
    }
    return [rules.typeIssue];
  };
}

const compiled = new WeakMap<object, ValueValidator>();

/** One-off check; validators are cached per schema object, so repeated calls with the same schema stay cheap. */
export function validateValue(value: unknown, schema: ValueSchema): readonly ValueIssue[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = compileValueSchema(schema);
    compiled.set(schema, validate);
  }
  return validate(value);
}
