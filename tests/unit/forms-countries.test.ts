import { describe, expect, it } from 'vitest';
import { oneFieldQuestion } from './support/one-field-question';
import { formModel, schemaFacts, type FormContract } from '@/lib/forms';
import { countryCodeCase, countryOptions } from '@/lib/forms/countries';
import type { Question, QuestionField } from '@/lib/portal';
import { buildCriteriaContract } from '@/server/sandbox/seed/criteria-contract';
import { field, funding } from './support/funding-form';

/** A two-letter country code is picked from the countries by name, not typed into a two-letter box. */

const about = 'text business_address country Registered address Country Two-letter ISO 3166 country code';
const facts = (schema: QuestionField['value_schema']) => schemaFacts(schema);

describe('which fields take a country code', () => {
  it('knows one by its length or pattern and the field’s words, in the case the schema asks for', () => {
    expect(countryCodeCase(facts({ type: 'string', minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' }), about)).toBe('upper');
    expect(countryCodeCase(facts({ type: 'string', minLength: 2, maxLength: 2 }), 'Country')).toBe('upper');
    expect(countryCodeCase(facts({ type: 'string', pattern: '^[a-z]{2}$' }), 'Country of residence')).toBe('lower');
    expect(countryCodeCase(facts({ type: 'string', format: 'iso3166-1-alpha-2' }), 'Where')).toBe('upper');
  });

  it('leaves other fields alone', () => {
    // Two letters, but not about a country (a US state, a language).
    expect(countryCodeCase(facts({ type: 'string', minLength: 2, maxLength: 2 }), 'State')).toBeNull();
    // About a country, but free text, or three letters.
    expect(countryCodeCase(facts({ type: 'string', maxLength: 60 }), 'Country')).toBeNull();
    expect(countryCodeCase(facts({ type: 'string', pattern: '^[A-Z]{3}$' }), 'Country')).toBeNull();
    // Choices of its own, another format, or not text.
    expect(countryCodeCase(facts({ type: 'string', enum: ['GB', 'IE'] }), 'Country')).toBeNull();
    expect(countryCodeCase(facts({ type: 'string', format: 'email', maxLength: 2 }), 'Country')).toBeNull();
    expect(countryCodeCase(facts({ type: 'integer', maximum: 99 }), 'Country')).toBeNull();
  });
});

describe('the country choice', () => {
  it('offers every assigned country by name, each answering its code', () => {
    const options = countryOptions('upper');
    expect(options.length).toBeGreaterThanOrEqual(249);
    expect(options).toContainEqual({ value: 'GB', label: 'United Kingdom', answer: 'GB' });
    expect(options).toContainEqual({ value: 'US', label: 'United States', answer: 'US' });
    const labels = options.map((o) => o.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
    expect(countryOptions('lower')).toContainEqual({ value: 'gb', label: 'United Kingdom', answer: 'gb' });
  });

  it('is what the address questions of the seed contracts get, and its answers pass their schema', () => {
    for (const model of [funding, formModel(buildCriteriaContract())]) {
      const country = field(model, 'business_address', 'country');
      expect(country.widget).toBe('select');
      expect(country.textLimit).toBeNull();
      expect(country.options?.find((o) => o.label === 'United Kingdom')?.answer).toBe('GB');
      for (const o of country.options!) expect(country.validate(o.answer)).toEqual([]);
      // The address's other two-letter-free fields stay text.
      expect(field(model, 'business_address', 'region').widget).toBe('text');
    }
  });

  it('keeps a country question whose schema is not a code as it was', () => {
    const q = (schema: QuestionField['value_schema']): Question => oneFieldQuestion({ schema_key: 'home', kind: 'text', label: 'Country', value_schema: schema });
    const contract: FormContract = { contract_version: 'c', sections: [{ section_key: 's1', label: 'One', order: 1 }], repeatable_groups: [], questions: [q({ type: 'string', maxLength: 60 })] };
    expect(field(formModel(contract), 'home').widget).toBe('text');
  });
});
