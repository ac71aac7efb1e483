/**
 * Numbers as people type them: "1,234.50", "£250,000", "12.5%", "−3". The form uses en-US grouping (as
 * lib/contract's messages do), so a comma groups thousands and the dot is the decimal point; anything
 * else is not a number and is kept as typed, for validation to point at.
 */

const SPACES = /[\s\u00a0\u2009\u202f]/g;
const CURRENCY = /^([+-]?)[$£€¥₹]|[$£€¥₹]$/;
const PLAIN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
const EXPONENT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)e[+-]?\d+$/i;

/** The decimal a text spells (sign, digits, point, exponent; grouping commas gone), or undefined. */
function decimalOf(text: string): string | undefined {
  let clean = text.replace(SPACES, '').replace(/\u2212/g, '-');
  clean = clean.replace(CURRENCY, '$1');
  if (clean.endsWith('%')) clean = clean.slice(0, -1);
  if (!PLAIN.test(clean) && !GROUPED.test(clean) && !EXPONENT.test(clean)) return undefined;
  return clean.replace(/,/g, '');
}

/** The digits that carry a decimal's value: no sign, point, exponent, leading or trailing zeros. */
function significantDigits(decimal: string): string {
  const mantissa = decimal.replace(/^[+-]/, '').split(/e/i)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
}

/**
 * Whether the double `n` read from `decimal` is exactly that decimal as JSON will carry it: String(n) is
 * the shortest text that reads back as n, so equal significant digits mean nothing was rounded away.
 * Up to 15 significant digits always survive (IEEE 754 guarantees them), so only longer ones are compared.
 */
function keepsEveryDigit(decimal: string, n: number): boolean {
  const typed = significantDigits(decimal);
  return typed.length <= 15 || typed === significantDigits(String(n));
}

/**
 * The number a text means, or undefined when it is not one — or when a double could only hold it rounded
 * ("123456789012345678901234567890", "0.12345678901234567891"): such a text is kept as typed, and the form
 * says why it is not saved (numberInputIssue) rather than saving another number without a word.
 */
export function parseNumberInput(text: string): number | undefined {
  const decimal = decimalOf(text);
  if (decimal === undefined) return undefined;
  const n = Number(decimal);
  if (!Number.isFinite(n) || !keepsEveryDigit(decimal, n)) return undefined;
  return n === 0 ? 0 : n; // no "-0" in answers
}

/** A text that reads as a number a double cannot hold exactly; true only for such a text. */
export function isInexactNumberInput(text: string): boolean {
  const decimal = decimalOf(text);
  if (decimal === undefined) return false;
  const n = Number(decimal);
  return !Number.isFinite(n) || !keepsEveryDigit(decimal, n);
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A number as the form shows it. String(n) is the shortest text that reads back as the same double, so
 * parsing what we show gives the value back exactly; currency adds grouping and two decimals for cents.
 */
export function formatNumberInput(n: number, widget: string): string {
  const text = String(n);
  if (widget !== 'currency' || /e/i.test(text)) return text;
  const [whole = '', fraction] = text.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const grouped = sign + group(whole.replace('-', ''));
  if (fraction === undefined) return grouped;
  return `${grouped}.${fraction.length === 1 ? `${fraction}0` : fraction}`;
}
