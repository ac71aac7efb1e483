/**
 * The user-facing wording of value issues. They appear next to form fields and in API 422 details, so they
 * speak to the person filling in the form, never about JSON Schema.
 */

// Built once: Intl exists in browsers and Node, and 'en-US' gives the "1,000" grouping the forms use.
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

function formatNumber(n: number): string {
  return NUMBER_FORMAT.format(n);
}

const plural = (n: number, one: string, many: string): string => `${formatNumber(n)} ${n === 1 ? one : many}`;

const TYPE_LABELS: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'yes or no',
  array: 'a list',
};

/** "Must be a whole number", "Must be a number or text"; `types` are the schema's, in its order. */
export function typeMessage(types: readonly string[]): string {
  // null is always accepted (unanswered), and "a number" already covers "a whole number".
  const named = types.filter((t) => t !== 'null' && !(t === 'integer' && types.includes('number')));
  const labels = named.map((t) => TYPE_LABELS[t] ?? t);
  if (labels.length === 0) return 'Must be left empty';
  if (labels.length === 1) return `Must be ${labels[0]}`;
  return `Must be ${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}

export const MESSAGES = {
  anyAnswer: 'Must be text, a number, yes or no, or a list',
  finiteNumber: 'Must be a number',
  scalarItem: 'Must be text, a number or yes or no',
  mixedItems: 'All items must be the same kind of value',
  choice: 'Choose one of the listed options',
  noChoices: 'There are no options to choose from here: leave it unanswered',
  unsafeNumber: 'Too large to be kept exactly: use a number between −9,007,199,254,740,991 and 9,007,199,254,740,991',
  /** A typed number the form would have to round (lib/forms/number-input: more digits than a double holds). */
  inexactNumber: 'Has more digits than can be kept exactly: use at most 15 significant digits',
  pattern: 'Enter a value in the expected format',
  format: {
    email: 'Enter a valid email address',
    uri: 'Enter a valid web address starting with http:// or https://',
    date: 'Enter a valid date (YYYY-MM-DD)',
    'date-time': 'Enter a valid date and time',
  } as Readonly<Record<string, string | undefined>>,
  minLength: (n: number): string =>
    n === 1 ? 'Must not be empty' : `Must be at least ${plural(n, 'character', 'characters')}`,
  maxLength: (n: number): string => `Must be at most ${plural(n, 'character', 'characters')}`,
  minimum: (n: number): string => `Must be ${formatNumber(n)} or more`,
  maximum: (n: number): string => `Must be ${formatNumber(n)} or less`,
  multipleOf: (step: number): string => {
    if (step === 1) return 'Must be a whole number';
    const places = decimalPlacesOfPowerOfTen(step);
    if (places !== undefined) return `Use at most ${plural(places, 'decimal place', 'decimal places')}`;
    return `Must be a multiple of ${formatNumber(step)}`;
  },
  minItems: (n: number, choices: boolean): string =>
    choices ? `Choose at least ${plural(n, 'option', 'options')}` : `Must have at least ${plural(n, 'item', 'items')}`,
  maxItems: (n: number, choices: boolean): string =>
    choices ? `Choose at most ${plural(n, 'option', 'options')}` : `Must have at most ${plural(n, 'item', 'items')}`,
  /** Which item of a list an issue is about, counted from 1 as a person would. */
  item: (index: number, message: string): string => `Item ${formatNumber(index + 1)}: ${message}`,
} as const;

/** 0.01 → 2, 0.1 → 1; undefined for any step that is not a negative power of ten. */
function decimalPlacesOfPowerOfTen(step: number): number | undefined {
  for (let places = 1; places <= 10; places++) {
    if (Math.abs(step - 10 ** -places) <= 10 ** -places * 1e-9) return places;
  }
  return undefined;
}
