import type { AnswerValue, Fit, MatchCriterion, MatchDecision, MatchDocument, ProductKind, ProjectStatus } from '@/lib/portal';

/** Funding recommendations in the sandbox's state (DESIGN.md §6): plain JSON, saved with the data file. */

/** Credit bands, from best to worst (the criteria contract asks for one of these). */
export const CREDIT_BANDS = ['excellent', 'good', 'fair', 'poor'] as const;
export type CreditBand = (typeof CREDIT_BANDS)[number];

/** Currencies a criteria may ask for (contract choice values are lowercase; amounts carry ISO codes). */
export const CURRENCIES = ['gbp', 'eur', 'usd'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** What a business can offer as security: the intake contract's asset types and a personal guarantee. */
export const COLLATERAL_KINDS = ['property', 'vehicle', 'equipment', 'inventory', 'receivables', 'personal_guarantee', 'other'] as const;
export type CollateralKind = (typeof COLLATERAL_KINDS)[number];

/** Documents a funder may require, each found in the intake application by its file question's schema_key. */
export const FUNDER_DOCUMENTS = {
  bank_statements: { label: 'Business bank statements', schema_key: 'bank_statements' },
  annual_accounts: { label: 'Latest annual accounts', schema_key: 'annual_accounts' },
  owner_id: { label: 'ID for each owner', schema_key: 'owner_id_document' },
  supporting_documents: { label: 'Supporting documents', schema_key: 'supporting_documents' },
} as const;
export type FunderDocument = keyof typeof FUNDER_DOCUMENTS;

export interface FunderProduct {
  /** Unique within its funder. */
  key: string;
  name: string;
  kind: ProductKind;
  /** ISO 4217, upper case. */
  currency: string;
  amount: { min: number; max: number };
  /** Yearly rate in percent; null where the product has none (grants, cash advances). */
  rate: { min: number; max: number } | null;
  term_months: { min: number; max: number } | null;
  /** Purposes it funds (intake `funding_purpose` values); null: any purpose. */
  purposes: string[] | null;
  requires_collateral: boolean;
  /** Security it takes when it requires some; empty: any. */
  collateral_accepted: CollateralKind[];
}

/** A funder's lending box: what it screens on before any product-specific rule. */
export interface LendingBox {
  min_months_trading: number;
  min_annual_revenue: number;
  requires_profit: boolean;
  credit_bands: CreditBand[];
  /** Industries it serves (intake `industry` values); null: every industry not excluded. */
  industries: string[] | null;
  excluded_industries: string[];
  /** ISO 3166 alpha-2 country codes it lends in. */
  countries: string[];
  /** Regions it does not lend in (compared case-insensitively with the business's address region). */
  excluded_regions: Array<{ country: string; region: string }>;
  /** Typical days from application to funds. */
  days_to_fund: number;
  documents: FunderDocument[];
}

/** A funder is a recipient (`recipients/`) with products and a lending box. */
export interface FunderProfile {
  recipient_id: string;
  name: string;
  products: FunderProduct[];
  lending: LendingBox;
}

/** The criteria as a run read them: `schema_key|field_key` → value, plus what the rules need from the intake. */
export interface CriteriaSnapshot {
  answers: Record<string, AnswerValue>;
  /** Intake file questions (schema_key) that have at least one file. */
  intake_files: string[];
  /** The day the run screens on (months trading are counted to it), YYYY-MM-DD. */
  as_of: string;
}

export interface ProjectRec {
  id: string;
  /** Creation order: the keyset of project pages. */
  seq: number;
  business_id: string;
  name: string;
  criteria_id: string;
  status: ProjectStatus;
  revision: number;
  /** The latest run, and the latest one that completed (whose matches matches_url pages). */
  latest_run_id: string | null;
  latest_completed_run_id: string | null;
  /** What was copied from the intake application at create (null when nothing was). */
  prefill: {
    application_id: string;
    answers_revision: number;
    at: string;
    /** `block|schema|field` → the value copied. */
    values: Record<string, AnswerValue>;
  } | null;
  created_at: string;
  updated_at: string;
}

export type MatchRunStatus = 'pending' | 'running' | 'completed' | 'failed';

/** A screened product before ranking. */
export interface ScreenedProduct {
  recipient_id: string;
  recipient_name: string;
  product_key: string;
  product: { name: string; kind: ProductKind };
  score: number;
  fit: Fit;
  amount_range: { min: number; max: number; currency: string };
  rate_range: { min: number; max: number } | null;
  term_months: { min: number; max: number } | null;
  criteria: MatchCriterion[];
  documents: MatchDocument[];
}

export interface MatchRunRec {
  id: string;
  seq: number;
  project_id: string;
  status: MatchRunStatus;
  step: string;
  completed_units: number;
  total_units: number;
  attempt_sequence: number;
  failure: { code: string; message: string } | null;
  match_count: number;
  /** The criteria revision and answers_revision the current attempt read (matches are stale once answers_revision moves). */
  criteria_revision: number;
  criteria_answers_revision: number;
  snapshot: CriteriaSnapshot;
  /** The funders the current attempt screens, in order (fixed when it starts). */
  funder_ids: string[];
  /** Products screened so far by the current attempt; cleared when it ends. */
  screened: ScreenedProduct[];
  /** The run's matches in rank order, once completed. */
  match_ids: string[];
  /** Moves on every change (the run's ETag). */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface MatchRec extends ScreenedProduct {
  id: string;
  run_id: string;
  project_id: string;
  /** 1-based position in its run (score descending, then a stable tie-break): the keyset of match pages. */
  rank: number;
  decision: MatchDecision;
  deal_id: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface FundingState {
  /** The contract every new project's criteria get. */
  criteria_contract_version: string;
  /** Seeded funders first, then generated ones. */
  funders: FunderProfile[];
  /** Generated funders (test control): how many and from which PRNG seed. */
  generated: { count: number; seed: number } | null;
  projects: Record<string, ProjectRec>;
  runs: Record<string, MatchRunRec>;
  matches: Record<string, MatchRec>;
}
