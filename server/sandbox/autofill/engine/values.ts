import { isDate, isEmail, isWebUrl } from '@/lib/contract/value-formats';
import { fold } from './text';
import { CHOICE_SYNONYMS, COMPANY_SUFFIX, COUNTRY_CODES, MONTHS, US_STATES } from './vocabulary';

/**
 * Value readers: each finds values of one type in a piece of text. `find*` scans free text and reports where
 * each value stands (for the words around it); `read*` reads the value part of a "Key: value" line.
 */

export interface Found<T> {
  value: T;
  /** Where the value's text starts and ends in the scanned text. */
  start: number;
  end: number;
  /** Set when the text could mean something else (03/12/2019). */
  ambiguity?: string;
  /** Set when the text carries a mark of the type (a currency sign, a % sign). */
  marked?: boolean;
}

/* Numbers and money. */

const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, million: 1e6, bn: 1e9, billion: 1e9 };

const NUMBER_RE =
  /(\(\s*)?([-−–]\s*)?(?:([£$€]|US\$|GBP|USD|EUR)\s*)?([-−]\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(million|thousand|billion|bn|mn|k|m)\b)?(\s*(?:GBP|USD|EUR|pounds|dollars|euros)\b)?(\s*%|\s+per ?cent\b|\s+percent\b)?(\s*\))?/gi;

export interface NumberFound extends Found<number> {
  currency: boolean;
  percent: boolean;
  /** Written as a plain whole number with no separators, sign or mark (a year, a count, an id). */
  bare: boolean;
}

export function findNumbers(text: string): NumberFound[] {
  const out: NumberFound[] = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const [whole, open, sign1, cur1, sign2, digits, mult, cur2, pct, close] = m;
    const start = m.index;
    // Part of a word or a code (A12, 3B, 2019-03-12): not a number on its own.
    const before = text[start - 1] ?? ' ';
    const after = text[start + whole.length] ?? ' ';
    if (/[A-Za-z0-9_]/.test(before) || /[A-Za-z_]/.test(after)) continue;
    if (/^[-/.]\d/.test(text.slice(start + whole.length))) continue;
    if (/\d[-/.]$/.test(text.slice(Math.max(0, start - 2), start)) && !cur1) continue;
    let value = Number(digits!.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    if (mult) value *= MULTIPLIERS[mult.toLowerCase()] ?? 1;
    const negative = Boolean(sign1 || sign2 || (open && close));
    if (negative) value = -value;
    value = Math.round(value * 100) / 100;
    const currency = Boolean(cur1 || cur2);
    out.push({
      value,
      start,
      end: start + whole.length,
      currency,
      percent: Boolean(pct),
      marked: currency || Boolean(pct) || Boolean(mult),
      bare: !currency && !pct && !mult && !negative && /^\d+$/.test(digits!),
    });
  }
  return out;
}

/** The first amount of a value ("£612,400", "$1.2m", "250k", "(12,000)"). */
export function readNumber(text: string): NumberFound | undefined {
  return findNumbers(text)[0];
}

export function readInteger(text: string): number | undefined {
  const n = findNumbers(text).find((f) => !f.percent);
  if (!n || !Number.isInteger(n.value)) return undefined;
  return n.value;
}

/* Dates. */

const MONTH_NAMES = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');
const ISO_DATE = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g;
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_NAMES})\\.?,?\\s+(\\d{4})\\b`, 'gi');
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
const NUMERIC_DATE = /\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b/g;

const iso = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Dates written as ISO, "12 March 2019", "March 12, 2019" or 12/03/2019 (day first unless that is impossible). */
export function findDates(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const push = (value: string, start: number, length: number, ambiguity?: string) => {
    if (!isDate(value)) return;
    if (out.some((f) => start < f.end && start + length > f.start)) return;
    out.push({ value, start, end: start + length, ...(ambiguity ? { ambiguity } : {}) });
  };
  for (const m of text.matchAll(ISO_DATE)) push(iso(+m[1]!, +m[2]!, +m[3]!), m.index, m[0].length);
  for (const m of text.matchAll(DAY_MONTH_YEAR)) push(iso(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!), m.index, m[0].length);
  for (const m of text.matchAll(MONTH_DAY_YEAR)) push(iso(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!), m.index, m[0].length);
  for (const m of text.matchAll(NUMERIC_DATE)) {
    const a = +m[1]!;
    const b = +m[2]!;
    const y = +m[3]!;
    if (a > 12 && b <= 12) push(iso(y, b, a), m.index, m[0].length);
    else if (b > 12 && a <= 12) push(iso(y, a, b), m.index, m[0].length);
    else if (a === b) push(iso(y, a, b), m.index, m[0].length);
    else {
      push(
        iso(y, b, a),
        m.index,
        m[0].length,
        `${m[0]} could be day/month or month/year order; it was read as day/month/year (${iso(y, b, a)}).`,
      );
    }
  }
  return out.sort((x, y) => x.start - y.start);
}

/* Contact details. */

const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

export function findEmails(text: string): Array<Found<string>> {
  return [...text.matchAll(EMAIL_RE)]
    .map((m) => ({ value: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }))
    .filter((f) => isEmail(f.value));
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'()[\],;]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/[^\s<>"'()[\],;]*)?/gi;
const DOMAIN_RE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/\S*)?$/i;

const cleanUrl = (raw: string) => {
  const trimmed = raw.replace(/[.,;:!?]+$/, '');
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
};

export function findUrls(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  for (const m of text.matchAll(URL_RE)) {
    // The domain of an email address is not a web address.
    if (text[m.index - 1] === '@') continue;
    const value = cleanUrl(m[0]);
    if (isWebUrl(value)) out.push({ value, start: m.index, end: m.index + m[0].length, marked: true });
  }
  return out;
}

/** A value given for a website: a URL, or a bare domain ("harbourstreetcafe.example"). */
export function readUrl(text: string): string | undefined {
  const found = findUrls(text)[0];
  if (found) return found.value;
  const first = text.trim().split(/\s+/)[0] ?? '';
  if (first.includes('@') || !DOMAIN_RE.test(first)) return undefined;
  const value = cleanUrl(first);
  return isWebUrl(value) ? value : undefined;
}

const PHONE_RE = /(?:\+\s?\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d[\d\s.-]{5,18}\d/g;

/**
 * Phone numbers: 7 to 15 digits, not a date. In free text a number must look dialled (+, a leading 0 or an
 * area code in brackets); after a "Phone:" key any such run of digits will do.
 */
export function findPhones(text: string, loose = false): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  for (const m of text.matchAll(PHONE_RE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(raw) || /^\d{1,2}[/.]\d{1,2}[/.]\d{4}$/.test(raw)) continue;
    if (/[A-Za-z0-9]/.test(text[m.index - 1] ?? ' ')) continue;
    if (!loose && !/^(?:\+|0|\()/.test(raw)) continue;
    out.push({ value: raw.replace(/\./g, ' ').replace(/\s+/g, ' '), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/* Yes and no. */

const END = String.raw`(?=$|[\s,.;:!)(/-])`;
const YES = new RegExp(String.raw`^(?:yes|y|true|correct|confirmed|we (?:can|will|do|have)|(?:can|will|does|do|has|have)(?!\s*(?:not|no)\b))` + END, 'i');
const NO = new RegExp(
  String.raw`^(?:no|n|false|none|nil|n/a|not applicable|nothing|we (?:cannot|can't|can not|won't|will not|do not|don't|have no)|cannot|can't|won't|unable|not)` + END,
  'i',
);

export function readBoolean(text: string): boolean | undefined {
  const t = text.trim().replace(/^["'“]/, '');
  if (NO.test(t)) return false;
  if (YES.test(t)) return true;
  return undefined;
}

/* Choices. */

/** The words of a choice value as a person would write them ("professional_services" → "professional services"). */
export const choiceLabel = (value: string) => fold(value.replace(/[_-]+/g, ' '));

/** Where a phrase stands in folded text as whole words, or -1. */
const phraseAt = (haystack: string, phrase: string) => (phrase ? ` ${haystack} `.indexOf(` ${phrase} `) : -1);

export interface ChoiceFound {
  value: string;
  /** Position and length of the first mention in the folded text. */
  at: number;
  length: number;
  /** The choice was named by its own label rather than a synonym. */
  exact: boolean;
}

/**
 * Allowed values a text mentions, by their labels or the vocabulary's synonyms. "other" is only ever chosen
 * when the text says so itself. A mention inside a longer one counts for the longer one only ("limited
 * liability partnership" is an LLP, not a partnership).
 */
export function findChoices(text: string, allowed: readonly string[]): ChoiceFound[] {
  const folded = fold(text);
  const found: ChoiceFound[] = [];
  for (const value of allowed) {
    const label = choiceLabel(value);
    const phrases = [label, ...(label === 'other' ? [] : (CHOICE_SYNONYMS[label] ?? []).map(fold))];
    let best: ChoiceFound | null = null;
    for (const phrase of phrases) {
      const at = phraseAt(folded, phrase);
      if (at < 0) continue;
      const candidate = { value, at, length: phrase.length, exact: phrase === label };
      if (!best || at < best.at || (at === best.at && phrase.length > best.length)) best = candidate;
    }
    if (best) found.push(best);
  }
  return found.filter(
    (c) => !found.some((o) => o !== c && o.length > c.length && o.at <= c.at && o.at + o.length >= c.at + c.length),
  );
}

export function readSingleChoice(text: string, allowed: readonly string[]): { value: string; exact: boolean } | undefined {
  const found = findChoices(text, allowed).sort((a, b) => a.at - b.at || Number(b.exact) - Number(a.exact));
  const first = found[0];
  return first ? { value: first.value, exact: first.exact } : undefined;
}

export function readMultiChoice(text: string, allowed: readonly string[]): string[] {
  const found = new Set(findChoices(text, allowed).map((c) => c.value));
  return allowed.filter((v) => found.has(v));
}

/* Names. */

const NAME_WORD = "\\p{Lu}[\\p{L}'’-]*\\.?";
const PERSON_RE = new RegExp(`^(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\\.?\\s+)?(${NAME_WORD}(?:\\s+(?:(?:de|da|di|van|von|der|den|del|la|le|bin|al)\\s+)*${NAME_WORD}){1,3})$`, 'u');

/** A person's name: two to four capitalised words, titles dropped. */
export function readPersonName(text: string): string | undefined {
  const m = PERSON_RE.exec(text.trim());
  if (!m) return undefined;
  const name = m[1]!;
  if (COMPANY_SUFFIX.test(name)) return undefined;
  return name;
}

export const looksLikeCompany = (text: string) => COMPANY_SUFFIX.test(text.trim());

/* Addresses. */

export interface AddressParts {
  line1?: string;
  line2?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
  /** The country as written, for fields that take a name rather than a code. */
  country_name?: string;
}

const UK_POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})\b/i;
const US_ZIP = /\b([A-Z]{2})\s+(\d{5}(?:-\d{4})?)\b/;
const PLAIN_POSTCODE = /^\d{4,6}(?:-\d{4})?$/;
const LINE_WORDS =
  /^(?:\d+[A-Za-z]?\b|po box|p\.o\.)|\b(?:unit|suite|flat|apartment|apt|floor|building|block|room|works|house|street|st|road|rd|lane|ln|avenue|ave|way|drive|dr|close|place|row|boulevard|blvd|court|crescent|terrace|square|parade|mews|quay|wharf)\b/i;

export function countryCode(text: string): string | undefined {
  const t = fold(text);
  if (COUNTRY_CODES[t]) return COUNTRY_CODES[t];
  if (/^[A-Z]{2}$/.test(text.trim()) && Object.values(COUNTRY_CODES).includes(text.trim())) return text.trim();
  return undefined;
}

/**
 * Splits a one-line address ("Unit 2, 27 Harbour Street, Whitby, North Yorkshire, YO21 3PU, United Kingdom"):
 * country last, then the postcode (UK, US state and ZIP, or digits), street lines first, then town and region.
 */
export function parseAddress(text: string): AddressParts | undefined {
  const parts = text
    .split(/\s*[,;\n]\s*/)
    .map((p) => p.trim().replace(/\.$/, ''))
    .filter(Boolean);
  if (parts.length < 2) return undefined;
  const out: AddressParts = {};
  const last = parts[parts.length - 1]!;
  const code = countryCode(last);
  if (code) {
    out.country = code;
    out.country_name = last;
    parts.pop();
  }
  // The postcode: a part of its own, or the end of the town's part ("Bristol BS1 5TX", "Oakland CA 94607").
  for (let i = parts.length - 1; i >= 0 && out.postal_code === undefined; i--) {
    const p = parts[i]!;
    const us = US_ZIP.exec(p);
    if (us && US_STATES.has(us[1]!)) {
      out.postal_code = us[2]!;
      out.region = us[1]!;
      out.country ??= 'US';
      const rest = p.slice(0, us.index).trim();
      if (rest) parts[i] = rest;
      else parts.splice(i, 1);
      break;
    }
    const uk = UK_POSTCODE.exec(p);
    if (uk && (uk[0].length === p.length || uk.index + uk[0].length === p.length)) {
      out.postal_code = uk[1]!.toUpperCase().replace(/\s+/, ' ').replace(/^(\S+?)(\d[A-Z]{2})$/, '$1 $2');
      const rest = p.slice(0, uk.index).trim();
      if (rest) parts[i] = rest;
      else parts.splice(i, 1);
      break;
    }
    if (PLAIN_POSTCODE.test(p)) {
      out.postal_code = p;
      parts.splice(i, 1);
      break;
    }
  }
  if (out.postal_code === undefined || parts.length === 0) return undefined;
  const lines = parts.filter((p, i) => i === 0 || LINE_WORDS.test(p) || /\d/.test(p));
  const places = parts.filter((p) => !lines.includes(p));
  // With no separate town, the last street part names it ("27 Harbour Street, Whitby" has two parts).
  if (places.length === 0 && lines.length > 1 && !/\d/.test(lines[lines.length - 1]!)) places.push(lines.pop()!);
  const street = lines.find((l) => /^\d+[A-Za-z]?\s+\p{L}/u.test(l)) ?? lines[0];
  if (street) out.line1 = street;
  const others = lines.filter((l) => l !== street);
  if (others.length > 0) out.line2 = others.join(', ');
  if (places[0]) out.city = places[0];
  if (places.length > 1 && out.region === undefined) out.region = places.slice(1).join(', ');
  return out.line1 && out.city ? out : undefined;
}
