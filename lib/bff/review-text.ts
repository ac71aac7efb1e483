/** Review before submit, as plain data for pages: the intake form's bundle stays free of zod. */
export type ReviewState = 'draft' | 'in_review' | 'changes_requested' | 'submitted';

/** Longest comment, reply or staff note, in characters (the forms' counters say how many are left). */
export const REVIEW_TEXT_MAX = 1000;

/** The state as a phrase for staff pages. */
export const REVIEW_STATE_TEXT: Record<ReviewState, string> = {
  draft: 'Being filled in',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  submitted: 'Submitted',
};
