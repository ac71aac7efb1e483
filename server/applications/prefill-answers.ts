import type { BusinessCreateInput } from '@/lib/bff/businesses';
import { compileValueSchema } from '@/lib/contract';
import type { Question } from '@/lib/portal/contract';

/**
 * What "Create a business" collected, as answers of the new business's application, so staff do not type
 * the name and the contact twice. The contract says which question takes what by its schema_key (the
 * first key it has, of the ones below); only an unanswered question is written, only with a value its
 * value_schema accepts, and only a plain one-field question outside repeatable groups that may be updated.
 */

type Source = (input: BusinessCreateInput) => string | undefined;

/** The create form's values, each with the schema_keys contracts give the question that asks for it. */
const PREFILLS: ReadonlyArray<{ value: Source; keys: readonly string[] }> = [
  { value: (i) => i.name, keys: ['legal_name', 'business_name', 'company_name', 'organisation_name', 'organization_name'] },
  { value: (i) => i.contact?.full_name, keys: ['contact_name', 'contact_full_name', 'full_name'] },
  { value: (i) => i.contact?.email, keys: ['contact_email', 'email'] },
  { value: (i) => i.contact?.phone_number, keys: ['contact_phone', 'contact_phone_number', 'phone_number', 'phone'] },
  { value: (i) => i.contact?.job_title, keys: ['contact_role', 'contact_job_title', 'job_title'] },
];

export interface PrefillWrite {
  block_key: string;
  schema_key: string;
  field_key: string;
  value: string;
  /** The question's label, to say what was filled in. */
  label: string;
}

interface AnswerLike {
  block_key: string;
  schema_key: string;
  field_key: string;
  value: unknown;
}

const isUnanswered = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** The one field of a question that may take a prefilled text, or null. */
function fieldToFill(q: Question) {
  if (q.is_repeatable || q.parent_block_key !== null || q.answer_shape !== 'field' || q.fields.length !== 1) return null;
  if (!q.answer_operations.includes('update')) return null;
  return q.fields[0]!;
}

export interface PrefillPlan {
  /** The answers to write. */
  writes: PrefillWrite[];
  /** Labels of the questions that hold the form's value once they are written (or already did: a retried create). */
  filled: string[];
}

export function prefillAnswers(questions: readonly Question[], answers: readonly AnswerLike[], input: BusinessCreateInput): PrefillPlan {
  const plan: PrefillPlan = { writes: [], filled: [] };
  const answerOf = (q: Question, fieldKey: string) =>
    answers.find((a) => a.block_key === q.block_key && a.schema_key === q.schema_key && a.field_key === fieldKey)?.value ?? null;
  for (const { value: valueOf, keys } of PREFILLS) {
    const value = valueOf(input)?.trim();
    if (!value) continue;
    for (const key of keys) {
      const question = questions.find((q) => q.schema_key === key);
      const field = question && fieldToFill(question);
      if (!question || !field) continue;
      // The first question the contract has for it decides: an answer there is never overwritten.
      const now = answerOf(question, field.field_key);
      if (now === value) plan.filled.push(question.label);
      else if (isUnanswered(now) && compileValueSchema(field.value_schema)(value).length === 0) {
        plan.writes.push({ block_key: question.block_key, schema_key: question.schema_key, field_key: field.field_key, value, label: question.label });
        plan.filled.push(question.label);
      }
      break;
    }
  }
  return plan;
}
