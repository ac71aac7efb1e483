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

/** The number a text means, or undefined when it is not one. */
export function parseNumberInput(text: string): number | undefined {
  let clean = text.replace(SPACES, '').replace(/\u2212/g, '-');
  clean = clean.replace(CURRENCY, '$1');
  if (clean.endsWith('%')) clean = clean.slice(0, -1);
  if (!PLAIN.test(clean) && !GROUPED.test(clean) && !EXPONENT.test(clean)) return undefined;
  const n = Number(clean.replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  return n === 0 ? 0 : n; // no "-0" in answers
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
