import { LIMITS } from '../portal/limits';
import { codePointCount } from '../contract/value-validation';
import type { SchemaFacts } from './schema-facts';

/**
 * The widget for a field: chosen by the question's `kind`, checked against value_schema, and chosen from
 * value_schema alone when the kind is unknown or does not fit the schema (DESIGN.md §4: nothing is
 * hard-coded per contract, and a new kind upstream must still render).
 */

export const WIDGETS = [
  'text',
  'textarea',
  'email',
  'tel',
  'url',
  'integer',
  'number',
  'currency',
  'percent',
  'date',
  /** A yes / no pair, so "not answered yet" stays distinct from "no". */
  'yes-no',
  /** One box to tick: a declaration whose only acceptable answer is yes (enum [true]). */
  'checkbox',
  'radio',
  'select',
  'checkbox-group',
  'file',
  /** A list of free values with no choices: one per line in a textarea. */
  'list',
] as const;
export type Widget = (typeof WIDGETS)[number];

/** More options than this read better as a drop-down than as a column of radio buttons. */
export const RADIO_MAX_OPTIONS = 6;

/** Input attributes in React's spelling, so the form can spread them onto the element. */
export interface InputAttributes {
  readonly type?: 'text' | 'email' | 'tel' | 'url' | 'date';
  readonly inputMode?: 'text' | 'email' | 'tel' | 'url' | 'numeric' | 'decimal';
  readonly autoComplete?: string;
  readonly spellCheck?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number | 'any';
  readonly minLength?: number;
  /** The schema's pattern in HTML's anchored, `v`-flag form; left out when it cannot be expressed there. */
  readonly pattern?: string;
  readonly multiple?: boolean;
}

const NUMERIC: ReadonlySet<Widget> = new Set(['integer', 'number', 'currency', 'percent']);
export const isNumericWidget = (widget: Widget): boolean => NUMERIC.has(widget);

const TEXTUAL: ReadonlySet<Widget> = new Set(['text', 'textarea', 'email', 'tel', 'url', 'date']);

function choiceWidget(facts: SchemaFacts): Widget {
  return (facts.choices?.length ?? 0) > RADIO_MAX_OPTIONS ? 'select' : 'radio';
}

const isTrueOnly = (facts: SchemaFacts): boolean =>
  facts.choices !== undefined && facts.choices.length === 1 && facts.choices[0] === true;

const isStringy = (facts: SchemaFacts): boolean =>
  !facts.isList && (facts.scalar === 'string' || facts.scalar === undefined);
const isNumeric = (facts: SchemaFacts): boolean =>
  !facts.isList && (facts.scalar === 'integer' || facts.scalar === 'number');
const hasChoices = (facts: SchemaFacts): boolean => facts.choices !== undefined && facts.choices.length > 0;

/** Strings longer than this get a textarea when the kind does not say. */
const LONG_TEXT = 500;

/** The widget value_schema alone suggests. */
export function widgetFromSchema(facts: SchemaFacts): Widget {
  if (facts.isList) return hasChoices(facts) ? 'checkbox-group' : 'list';
  if (facts.scalar === 'boolean') return isTrueOnly(facts) ? 'checkbox' : 'yes-no';
  if (hasChoices(facts)) return choiceWidget(facts);
  if (facts.scalar === 'integer') return 'integer';
  if (facts.scalar === 'number') return 'number';
  switch (facts.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
  }
  return facts.maxLength !== undefined && facts.maxLength > LONG_TEXT ? 'textarea' : 'text';
}

/** The widget a known kind asks for, or undefined when the kind is unknown or its schema does not fit it. */
function widgetFromKind(kind: string, facts: SchemaFacts): Widget | undefined {
  const plainText = isStringy(facts) && !hasChoices(facts);
  switch (kind) {
    case 'text':
      return plainText ? 'text' : undefined;
    case 'long_text':
      return plainText ? 'textarea' : undefined;
    case 'email':
      return plainText ? 'email' : undefined;
    case 'phone':
      return plainText ? 'tel' : undefined;
    case 'url':
      return plainText ? 'url' : undefined;
    case 'date':
      // A date picker cannot produce a date-time or anything else.
      return plainText && (facts.format === undefined || facts.format === 'date') ? 'date' : undefined;
    case 'integer':
    case 'number':
    case 'currency':
    case 'percent':
      return isNumeric(facts) && !hasChoices(facts) ? kind : undefined;
    case 'yes_no':
      if (facts.isList || (facts.scalar !== 'boolean' && facts.scalar !== undefined)) return undefined;
      return isTrueOnly(facts) ? 'checkbox' : 'yes-no';
    case 'single_choice':
      return !facts.isList && hasChoices(facts) ? choiceWidget(facts) : undefined;
    case 'multi_choice':
      return facts.isList && hasChoices(facts) ? 'checkbox-group' : undefined;
    case 'file':
      return 'file';
    default:
      return undefined;
  }
}

export function chooseWidget(kind: string, answerShape: string, facts: SchemaFacts): Widget {
  // Files are uploaded, never typed, whatever the kind says.
  if (answerShape === 'file') return 'file';
  const fromKind = widgetFromKind(kind, facts);
  if (fromKind === 'file') return widgetFromSchema(facts);
  return fromKind ?? widgetFromSchema(facts);
}

/**
 * HTML compiles `pattern` with the `v` flag and anchors it (`^(?:p)$`), while JSON Schema searches
 * anywhere with `u`. Patterns valid under `u` can be invalid under `v` (e.g. `[0-9 ()-]`: the brackets
 * and hyphen are reserved in `v` classes), and the browser then silently drops the attribute; we drop it
 * ourselves and leave the check to our validator, which always has the original pattern.
 */
export function htmlPattern(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  // Contracts repeat a few patterns (phone numbers, country codes) across many fields.
  if (htmlPatterns.has(pattern)) return htmlPatterns.get(pattern);
  const html = toHtmlPattern(pattern);
  htmlPatterns.set(pattern, html);
  return html;
}

const htmlPatterns = new Map<string, string | undefined>();

function toHtmlPattern(pattern: string): string | undefined {
  const anchored = /^\^[^|]*[^\\|]\$$/.test(pattern);
  const html = anchored ? pattern.slice(1, -1) : `.*(?:${pattern}).*`;
  try {
    new RegExp(`^(?:${html})$`, 'v');
    new RegExp(pattern, 'u');
    return html;
  } catch {
    return undefined;
  }
}

const ADDRESS_AUTOCOMPLETE: Readonly<Record<string, string>> = {
  line1: 'address-line1',
  address_line1: 'address-line1',
  address_line_1: 'address-line1',
  street: 'address-line1',
  line2: 'address-line2',
  address_line2: 'address-line2',
  address_line_2: 'address-line2',
  line3: 'address-line3',
  city: 'address-level2',
  town: 'address-level2',
  locality: 'address-level2',
  region: 'address-level1',
  state: 'address-level1',
  county: 'address-level1',
  province: 'address-level1',
  postal_code: 'postal-code',
  postcode: 'postal-code',
  zip: 'postal-code',
  zip_code: 'postal-code',
  country: 'country',
  country_code: 'country',
};

/** Field keys that mark a question as an address, whatever its kind. */
export const ADDRESS_FIELD_KEYS: ReadonlySet<string> = new Set(Object.keys(ADDRESS_AUTOCOMPLETE));

/**
 * Browser autofill hints. By kind first (an email field is an email whoever it belongs to), then by the
 * field key inside multi-field questions, then by well-known schema key endings. Nothing is guessed for
 * the rest: a wrong hint fills in the wrong data, which is worse than none.
 */
export function autocompleteFor(
  widget: Widget,
  schemaKey: string,
  fieldKey: string,
  multiField: boolean,
): string | undefined {
  if (widget === 'email') return 'email';
  if (widget === 'tel') return 'tel';
  if (widget === 'url') return 'url';
  if (multiField || fieldKey !== 'value') {
    const byField = ADDRESS_AUTOCOMPLETE[fieldKey.toLowerCase()];
    if (byField !== undefined) return byField;
  }
  if (!TEXTUAL.has(widget) || widget === 'textarea') return undefined;
  const key = schemaKey.toLowerCase();
  if (/(?:^|_)(?:legal|company|business|trading|organi[sz]ation)_name$/.test(key)) return 'organization';
  if (/(?:^|_)(?:full_name|contact_name|signatory_name)$/.test(key) || key === 'name') return 'name';
  if (/(?:^|_)(?:job_title|role)$/.test(key)) return 'organization-title';
  if (/(?:^|_)(?:dob|date_of_birth|birth_date)$/.test(key)) return 'bday';
  if (/(?:^|_)(?:postal_code|postcode|zip_code)$/.test(key)) return 'postal-code';
  return undefined;
}

function numericAttributes(widget: Widget, facts: SchemaFacts): InputAttributes {
  const integer = widget === 'integer' || facts.scalar === 'integer';
  // Mobile numeric keypads have no minus key, so a field that takes negatives keeps the full keyboard.
  const negatives = facts.minimum === undefined || facts.minimum < 0;
  return {
    // type=number would refuse "1,234.50" and lose what was typed; values are parsed by lib/forms/values.
    type: 'text',
    ...(negatives ? {} : { inputMode: integer ? 'numeric' : 'decimal' }),
    ...(facts.minimum === undefined ? {} : { min: facts.minimum }),
    ...(facts.maximum === undefined ? {} : { max: facts.maximum }),
    step: facts.multipleOf ?? (integer ? 1 : 'any'),
    spellCheck: false,
  };
}

/** How long a text may be, and how its length is counted: code points for maxLength, UTF-16 units for the spec. */
export interface TextLimit {
  readonly max: number;
  readonly units: 'code-points' | 'utf16';
}

/**
 * The length limit of a typed text, for the live counter. Deliberately not an HTML maxlength: that cuts
 * typing and pastes without a word, and nothing a person types may change silently.
 */
export function textLimitOf(widget: Widget, facts: SchemaFacts): TextLimit | null {
  if (!TEXTUAL.has(widget) || widget === 'date') return null;
  if (facts.maxLength !== undefined && facts.maxLength < LIMITS.answerStringMax) {
    return { max: facts.maxLength, units: 'code-points' };
  }
  return { max: LIMITS.answerStringMax, units: 'utf16' };
}

/** A text's length as its limit counts it. */
export function textLength(text: string, units: TextLimit['units']): number {
  return units === 'utf16' ? text.length : codePointCount(text);
}

function textAttributes(widget: Widget, facts: SchemaFacts): InputAttributes {
  const pattern = htmlPattern(facts.pattern);
  const typed = widget === 'email' || widget === 'tel' || widget === 'url';
  return {
    // A textarea has no type; email, tel and url bring their own keyboards.
    ...(widget === 'textarea' ? {} : { type: typed ? widget : 'text' }),
    ...(typed ? { inputMode: widget } : {}),
    ...(widget === 'email' || widget === 'url' ? { spellCheck: false } : {}),
    ...(facts.minLength === undefined || facts.minLength === 0 ? {} : { minLength: facts.minLength }),
    ...(pattern === undefined ? {} : { pattern }),
  };
}

export function inputAttributes(
  widget: Widget,
  facts: SchemaFacts,
  autoComplete: string | undefined,
): InputAttributes {
  const hint = autoComplete === undefined ? {} : { autoComplete };
  if (NUMERIC.has(widget)) return { ...numericAttributes(widget, facts), ...hint };
  switch (widget) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'tel':
    case 'url':
      return { ...textAttributes(widget, facts), ...hint };
    case 'date':
      return { type: 'date', ...hint };
    case 'select':
      // A drop-down of countries is filled in by the browser like a country box.
      return hint;
    case 'file':
      return { multiple: facts.maxItems !== 1 };
    default:
      return {};
  }
}
