/**
 * Checks for the `format` keywords of value_schema (DESIGN.md §5). Pure string tests with no Node- or
 * browser-only API, so the sandbox, the BFF and the form agree on every value.
 */

export type FormatCheck = (text: string) => boolean;

// Pragmatic on purpose: RFC 5322 accepts addresses nobody can receive mail at, so we ask for
// something@domain.tld with a letters-only TLD, and allow international domain names.
const EMAIL = /^[^\s@]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
// RFC 3339, the profile of ISO 8601 that JSON Schema's date-time names: seconds and an offset are required.
const DATE_TIME_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const WEB_SCHEME = /^https?:\/\//i;

/** Two or four ASCII digits at `at`, read without slicing (the shape regex has already vouched for them). */
function digits(text: string, at: number, count: 2 | 4): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + (text.charCodeAt(i) - 48);
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The YYYY-MM-DD at the start of `text` names a real day of the (proleptic Gregorian) calendar. */
function isCalendarDate(text: string): boolean {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export const isEmail: FormatCheck = (text) => EMAIL.test(text);

export const isDate: FormatCheck = (text) => DATE_SHAPE.test(text) && isCalendarDate(text);

export const isDateTime: FormatCheck = (text) => {
  if (!DATE_TIME_SHAPE.test(text) || !isCalendarDate(text)) return false;
  // Leap seconds (:60) are refused: Date and most databases cannot hold them.
  if (digits(text, 11, 2) > 23 || digits(text, 14, 2) > 59 || digits(text, 17, 2) > 59) return false;
  if (text.endsWith('Z')) return true;
  const offsetAt = text.length - 5;
  return digits(text, offsetAt, 2) <= 23 && digits(text, offsetAt + 3, 2) <= 59;
};

/** An absolute http(s) URL. WHATWG `URL` exists in browsers and Node alike; it is only the final judge. */
export const isWebUrl: FormatCheck = (text) => {
  // The URL parser quietly repairs "https:example.com" and strips tabs and newlines, so refuse those first.
  if (!WEB_SCHEME.test(text)) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) <= 0x20) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** The check for a format name; a format outside the subset has none and is ignored. */
export function formatCheck(format: string): FormatCheck | undefined {
  // A switch rather than a lookup object, so "constructor" or "toString" cannot find Object.prototype.
  switch (format) {
    case 'email':
      return isEmail;
    case 'uri':
      return isWebUrl;
    case 'date':
      return isDate;
    case 'date-time':
      return isDateTime;
    default:
      return undefined;
  }
}
