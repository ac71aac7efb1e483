import { iso31661 } from 'iso-3166/1.js';
import { codeName } from './labels';
import type { SchemaFacts } from './schema-facts';

/**
 * Text fields that take an ISO 3166-1 alpha-2 country code ("GB"): a person picks a country by its name
 * rather than typing a code (a two-letter text box answered "Great Britain" with "11 characters too many").
 * Recognised from value_schema and the field's own words, never by contract key.
 */

/** The case of the codes a field takes; null when it is not a country-code field. */
export type CodeCase = 'upper' | 'lower';

const COUNTRY_WORDS = /\bcountr|iso[\s_-]?3166|\bnationality\b/i;

function accepts(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/**
 * Whether a field takes a country code, and in which case: a string field without choices whose format
 * names a country code, or whose length or pattern allows exactly two letters, in a field whose words
 * (`about`: its kind, keys, labels and help text) speak of a country.
 */
export function countryCodeCase(facts: SchemaFacts, about: string): CodeCase | null {
  if (facts.isList || facts.choices !== undefined || (facts.scalar !== undefined && facts.scalar !== 'string')) return null;
  const byFormat = facts.format !== undefined && /country|iso[\s_-]?3166/i.test(facts.format);
  if (!byFormat && facts.format !== undefined) return null;
  // Cheap tests first: most text fields are about something else, or longer than two letters.
  if (!byFormat && (!COUNTRY_WORDS.test(about) || (facts.maxLength !== undefined && facts.maxLength < 2))) return null;
  if (!byFormat && facts.maxLength !== 2 && facts.pattern === undefined) return null;
  const { pattern } = facts;
  const two = (text: string) => pattern === undefined || accepts(pattern, text);
  const upper = two('GB') && !(pattern !== undefined && (accepts(pattern, 'GBR') || accepts(pattern, 'G')));
  const lower = two('gb') && !(pattern !== undefined && (accepts(pattern, 'gbr') || accepts(pattern, 'g')));
  const lengthSaysTwo = facts.maxLength === 2 && (facts.minLength === 2 || pattern !== undefined);
  const patternSaysTwo = pattern !== undefined && (upper || lower) && (facts.maxLength === undefined || facts.maxLength >= 2);
  if (!byFormat && !((lengthSaysTwo || patternSaysTwo) && COUNTRY_WORDS.test(about))) return null;
  if (upper) return 'upper';
  return lower ? 'lower' : null;
}

export interface CountryOption {
  readonly value: string;
  readonly label: string;
  readonly answer: string;
}

const lists = new Map<CodeCase, readonly CountryOption[]>();

/** Every assigned country, by its English name (Intl.DisplayNames; ISO's own name where it has none), in name order. */
export function countryOptions(codeCase: CodeCase): readonly CountryOption[] {
  let list = lists.get(codeCase);
  if (list === undefined) {
    list = iso31661
      .map(({ alpha2, name }) => {
        const code = codeCase === 'upper' ? alpha2 : alpha2.toLowerCase();
        return { value: code, label: codeName('region', alpha2) ?? name, answer: code };
      })
      .sort((a, b) => a.label.localeCompare(b.label, 'en'));
    lists.set(codeCase, list);
  }
  return list;
}
