import { answerName, fieldOf, formModel, formStateFrom, type FieldModel, type FormModel } from '@/lib/forms';
import { buildFundingContract } from '@/server/sandbox/seed/funding-contract';

/** The demo funding application's form: what most form tests read. */
export const funding = formModel(buildFundingContract());

/** Every top-level field of the funding form, empty. */
export const emptyFunding = formStateFrom(funding, []).values;

/** The name of a top-level field of a question in its own block. */
export const top = (schemaKey: string, fieldKey = 'value') => answerName(schemaKey, schemaKey, fieldKey);

/** A field of the model; a missing one fails the test at once. */
export function field(model: FormModel, schemaKey: string, fieldKey = 'value'): FieldModel {
  const found = fieldOf(model, schemaKey, fieldKey);
  if (found === undefined) throw new Error(`no field ${schemaKey}.${fieldKey}`);
  return found;
}
