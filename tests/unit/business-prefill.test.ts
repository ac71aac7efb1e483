import { describe, expect, it } from 'vitest';
import type { Question } from '@/lib/portal';
import { prefillAnswers } from '@/server/applications/prefill-answers';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';

/* What "Create a business" collected, as answers of the new application's questions (by schema_key). */

const questions = buildFundingContract().questions as Question[];
const input = {
  name: 'Harbour Street Café',
  contact: { full_name: 'Jo Bloggs', email: 'jo@harbour.test', phone_number: '+44 20 7946 0958', job_title: 'Owner' },
};
const answer = (schema_key: string, value: unknown) => ({ block_key: schema_key, schema_key, field_key: 'value', value });

describe('prefilling a new application from the create form', () => {
  it('answers the questions the contract has for the name and the contact', () => {
    const plan = prefillAnswers(questions, [], input);
    expect(plan.writes.map((w) => [w.schema_key, w.field_key, w.value])).toEqual([
      ['legal_name', 'value', 'Harbour Street Café'],
      ['contact_name', 'value', 'Jo Bloggs'],
      ['contact_email', 'value', 'jo@harbour.test'],
      ['contact_phone', 'value', '+44 20 7946 0958'],
      ['contact_role', 'value', 'Owner'],
    ]);
    expect(plan.filled).toEqual(['Legal business name', 'Contact name', 'Email address', 'Phone number', 'Role in the business']);
  });

  it('never overwrites an answer, and counts one that already holds the value as filled', () => {
    const plan = prefillAnswers(questions, [answer('contact_name', 'Someone Else'), answer('legal_name', 'Harbour Street Café'), answer('contact_email', null)], input);
    expect(plan.writes.map((w) => w.schema_key)).toEqual(['contact_email', 'contact_phone', 'contact_role']);
    expect(plan.filled).toContain('Legal business name');
    expect(plan.filled).not.toContain('Contact name');
  });

  it('writes only what the field’s schema accepts, and nothing the form did not collect', () => {
    const plan = prefillAnswers(questions, [], { name: 'X', contact: { full_name: 'Jo Bloggs', email: 'jo@harbour.test' } });
    // "X" is shorter than legal_name's minLength of 2; no phone or job title was given.
    expect(plan.writes.map((w) => w.schema_key)).toEqual(['contact_name', 'contact_email']);
    expect(prefillAnswers(questions, [], { name: 'No Contact Ltd' }).writes.map((w) => w.schema_key)).toEqual(['legal_name']);
  });

  it('takes the next key a contract has, and leaves questions that cannot take a plain value alone', () => {
    const named = questions.map((q) => (q.schema_key === 'legal_name' ? { ...q, schema_key: 'business_name', block_key: 'business_name' } : q));
    expect(prefillAnswers(named, [], { name: 'Renamed Ltd' }).writes.map((w) => w.schema_key)).toEqual(['business_name']);
    const readOnly = questions.map((q) => (q.schema_key === 'legal_name' ? { ...q, answer_operations: ['read' as const] } : q));
    expect(prefillAnswers(readOnly, [], { name: 'Read Only Ltd' }).writes).toEqual([]);
  });
});
