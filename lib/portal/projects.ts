import { z } from 'zod';
import { DateTime, NonNegativeInt, PageQuery, PositiveRevision, Revision, Uri, freeText, page } from './common';
import { AnswerKey, AnswerWrite } from './answers';
import { BusinessSummary } from './business';
import { FITS, MATCH_RUN_STATUSES, PRODUCT_KINDS } from './funding-values';
import { ApplicationId, BusinessId, DealId, MatchId, MatchRunId, ProjectCriteriaId, ProjectId, RecipientId } from './ids';

/*
 * Projects and funding recommendations (DESIGN.md §6, completing spec §1 "Find funding recommendations"):
 * a project's criteria, match runs and the matches they rank. Strict like the rest: the sandbox's
 * conformance tests hold its replies to exactly these fields.
 */

export const PROJECT_STATUSES = ['draft', 'matching', 'matched'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A funding project of one business. */
export const Project = z.strictObject({
  id: ProjectId,
  object: z.literal('project'),
  revision: Revision,
  business: BusinessSummary,
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  criteria_url: Uri,
  match_runs_url: Uri,
  matches_url: Uri,
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
});
export type Project = z.infer<typeof Project>;
export const ProjectPage = page(Project);
export type ProjectPage = z.infer<typeof ProjectPage>;

/** Projects list query: paging plus an optional business filter. */
export const ProjectsQuery = PageQuery.extend({ business_id: BusinessId.optional() });

export const ProjectCreateBody = z.strictObject({
  business_id: BusinessId,
  name: freeText(z.string().trim().min(1).max(255)),
});
export type ProjectCreateBody = z.infer<typeof ProjectCreateBody>;

/** How a deal names its project (spec 2.14 `project`, completed by §6). */
export const DealProjectRef = z.strictObject({ id: ProjectId, object: z.literal('project'), name: z.string() });

/**
 * Where the criteria were prefilled from when the project was created: the business's intake application
 * at that answers_revision, and the answers that still hold the value copied then (an answer changed since
 * is no longer listed). Null when nothing was copied.
 */
export const CriteriaPrefill = z.strictObject({
  application: z.strictObject({ id: ApplicationId, object: z.literal('client_intake_application'), url: Uri }),
  answers_revision: Revision,
  prefilled_at: DateTime,
  answers: z.array(AnswerKey),
});
export type CriteriaPrefill = z.infer<typeof CriteriaPrefill>;

/** A project's criteria: a contract and answers that behave exactly as an intake application's. */
export const ProjectCriteria = z.strictObject({
  object: z.literal('project_criteria'),
  id: ProjectCriteriaId,
  revision: Revision,
  answers_revision: Revision,
  updated_at: DateTime,
  url: Uri,
  answers_url: Uri,
  contract_url: Uri,
  prefilled_from: CriteriaPrefill.nullable(),
});
export type ProjectCriteria = z.infer<typeof ProjectCriteria>;

/** Answer mutation result of the criteria (spec 2.10 shape). */
export const CriteriaAnswersMutationResult = z.strictObject({
  object: z.literal('project_criteria_answers'),
  application: z.strictObject({ id: ProjectCriteriaId, object: z.literal('project_criteria') }),
  answers_revision: Revision,
  updated_answers: z.array(AnswerWrite),
  affected_section_keys: z.array(z.string()),
});
export type CriteriaAnswersMutationResult = z.infer<typeof CriteriaAnswersMutationResult>;


export const MatchRunFailure = z.strictObject({ code: z.string(), message: z.string() });

/** A match run: screens every funder against the criteria (progress units = funders screened). */
export const MatchRun = z.strictObject({
  id: MatchRunId,
  object: z.literal('match_run'),
  project: z.strictObject({ id: ProjectId, object: z.literal('project') }),
  status: z.enum(MATCH_RUN_STATUSES),
  progress: z.strictObject({ step: z.string(), completed_units: NonNegativeInt, total_units: NonNegativeInt }),
  match_count: NonNegativeInt,
  can_retry: z.boolean(),
  attempt_sequence: PositiveRevision,
  failure: MatchRunFailure.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
  matches_url: Uri,
  retry_url: Uri,
});
export type MatchRun = z.infer<typeof MatchRun>;
export const MatchRunPage = page(MatchRun);
export type MatchRunPage = z.infer<typeof MatchRunPage>;

/** Starting a run quotes the criteria revision it was read at (stale: 412). */
export const MatchRunStartBody = z.strictObject({ expected_criteria_revision: Revision });
export type MatchRunStartBody = z.infer<typeof MatchRunStartBody>;

// Kept without zod for the funding pages' client code, which filters by them.
export { FITS, MATCH_RUN_STATUSES, PRODUCT_KINDS, type Fit, type MatchRunStatus, type ProductKind } from './funding-values';
export const CRITERION_STATUSES = ['met', 'not_met', 'unknown'] as const;
export type CriterionStatus = (typeof CRITERION_STATUSES)[number];
export const DOCUMENT_STATUSES = ['provided', 'missing'] as const;
export const MATCH_DECISIONS = ['none', 'shortlisted', 'dismissed'] as const;
export type MatchDecision = (typeof MATCH_DECISIONS)[number];

/** One reason of a match: what the funder expects, what the criteria say, and whether that fits. */
export const MatchCriterion = z.strictObject({
  key: z.string(),
  label: z.string(),
  status: z.enum(CRITERION_STATUSES),
  expected: z.string(),
  /** null when the criteria leave it unanswered. */
  actual: z.string().nullable(),
  message: z.string(),
});
export type MatchCriterion = z.infer<typeof MatchCriterion>;

export const MatchDocument = z.strictObject({ key: z.string(), label: z.string(), status: z.enum(DOCUMENT_STATUSES) });
export type MatchDocument = z.infer<typeof MatchDocument>;

const Range = z.strictObject({ min: z.number(), max: z.number() });

/** A funder's product ranked for a project by a run. */
export const FundingMatch = z.strictObject({
  id: MatchId,
  object: z.literal('funding_match'),
  revision: Revision,
  run: z.strictObject({ id: MatchRunId, object: z.literal('match_run') }),
  recipient: z.strictObject({ id: RecipientId, object: z.literal('recipient'), name: z.string() }),
  product: z.strictObject({ name: z.string(), kind: z.enum(PRODUCT_KINDS) }),
  score: z.int().min(0).max(100),
  fit: z.enum(FITS),
  amount_range: z.strictObject({ min: z.number(), max: z.number(), currency: z.string().regex(/^[A-Z]{3}$/) }),
  rate_range: Range.nullable(),
  term_months: z.strictObject({ min: z.int().min(0), max: z.int().min(0) }).nullable(),
  criteria: z.array(MatchCriterion),
  documents: z.array(MatchDocument),
  decision: z.enum(MATCH_DECISIONS),
  deal: z.strictObject({ id: DealId, object: z.literal('deal'), url: Uri }).nullable(),
  stale: z.boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  url: Uri,
});
export type FundingMatch = z.infer<typeof FundingMatch>;
export const FundingMatchPage = page(FundingMatch);
export type FundingMatchPage = z.infer<typeof FundingMatchPage>;

/**
 * A match's ETag (DESIGN.md §6) is derived from its revision alone: the revision, quoted. So a page's
 * `revision` is a valid If-Match for a decision, with no read of the match first; a match going stale
 * (criteria changed) does not change it.
 */
export const fundingMatchEtag = (revision: number) => `"${revision}"`;

/** How a deal made from a match names it (DESIGN.md §6); the match's own `deal` names the deal back. */
export const DealMatchRef = z.strictObject({ id: MatchId, object: z.literal('funding_match'), url: Uri });
export type DealMatchRef = z.infer<typeof DealMatchRef>;

/** Matches query: paging plus the fit and product kind filters (a cursor is bound to them). */
export const MatchesQuery = PageQuery.extend({
  fit: z.enum(FITS).optional(),
  product_kind: z.enum(PRODUCT_KINDS).optional(),
});

/*
 * Webhook events of match runs (DESIGN.md §6), the `data` of `{ type, timestamp, data }`. A running run
 * sends `match_run.progress` at most once a second (funders screened so far), then one of the other two.
 */
const RunEventBase = { run_id: MatchRunId, project_id: ProjectId, business_id: BusinessId };

export const MatchRunProgressEventData = z.strictObject({
  ...RunEventBase,
  status: z.enum(MATCH_RUN_STATUSES),
  attempt_sequence: PositiveRevision,
  progress: z.strictObject({ step: z.string(), completed_units: NonNegativeInt, total_units: NonNegativeInt }),
});
export type MatchRunProgressEventData = z.infer<typeof MatchRunProgressEventData>;

export const MatchRunCompletedEventData = z.strictObject({
  ...RunEventBase,
  match_count: NonNegativeInt,
  fit_counts: z.strictObject({ strong: NonNegativeInt, good: NonNegativeInt, possible: NonNegativeInt, unlikely: NonNegativeInt }),
  best: z.strictObject({ match_id: MatchId, recipient_id: RecipientId, score: z.int().min(0).max(100), fit: z.enum(FITS) }).nullable(),
});
export type MatchRunCompletedEventData = z.infer<typeof MatchRunCompletedEventData>;

export const MatchRunFailedEventData = z.strictObject({
  ...RunEventBase,
  failure: MatchRunFailure,
  can_retry: z.boolean(),
});
export type MatchRunFailedEventData = z.infer<typeof MatchRunFailedEventData>;
