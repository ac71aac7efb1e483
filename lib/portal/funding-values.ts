// The product kinds and fits of funding matches and the states of a match run (DESIGN.md §6), without zod:
// projects.ts re-exports them.

export const PRODUCT_KINDS = [
  'term_loan',
  'line_of_credit',
  'equipment_finance',
  'invoice_finance',
  'merchant_cash_advance',
  'asset_finance',
  'grant',
] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const FITS = ['strong', 'good', 'possible', 'unlikely'] as const;
export type Fit = (typeof FITS)[number];
export const MATCH_RUN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type MatchRunStatus = (typeof MATCH_RUN_STATUSES)[number];
