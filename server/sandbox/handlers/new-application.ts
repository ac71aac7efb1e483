import type { ApplicationRec } from '../store/types';

/** A new application of either kind, as a business or a deal creates it: no answers, items or files yet. */
export function newApplication(of: Pick<ApplicationRec, 'id' | 'kind' | 'business_id' | 'deal_id' | 'contract_version'>, now: string): ApplicationRec {
  return {
    ...of,
    revision: 0,
    answers_revision: 0,
    answers: {},
    items: {},
    files: {},
    submitted_at: null,
    created_at: now,
    updated_at: now,
    answers_updated_at: null,
  };
}
