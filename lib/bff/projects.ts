import { z } from 'zod';
import {
  FITS,
  MATCH_DECISIONS,
  MATCH_RUN_STATUSES,
  MatchCriterion,
  MatchDocument,
  MatchRunStartBody,
  PRODUCT_KINDS,
  PROJECT_STATUSES,
  ProjectCreateBody,
  ProjectsQuery,
} from '@/lib/portal';
import { pageOf } from './businesses';

/*
 * What the BFF sends the browser about funding projects (DESIGN.md §6): projects, their match runs and the
 * matches a run ranked, without any Portal URL. The criteria are an application kind ('criteria') and use
 * the views of lib/bff/applications, so the intake form renders them.
 */

/** Project create body (DESIGN.md §6), validated before it goes upstream. */
export const ProjectCreateInput = ProjectCreateBody;
export type ProjectCreateInput = z.infer<typeof ProjectCreateInput>;

/** The "new funding project" form as the person fills it; messages are the ones shown. */
export const ProjectCreateForm = z.object({
  name: z.string().trim().min(1, 'Name the project.').max(255, 'Use at most 255 characters.'),
});
export type ProjectCreateForm = z.input<typeof ProjectCreateForm>;

/** The best match of a project's latest completed run, as a list shows it. */
export const BestMatchView = z.object({ recipient: z.string(), product: z.string(), fit: z.enum(FITS), score: z.number().int(), stale: z.boolean() });
export type BestMatchView = z.infer<typeof BestMatchView>;

export const ProjectView = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  revision: z.number().int(),
  business: z.object({ id: z.string(), name: z.string().nullable() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectView = z.infer<typeof ProjectView>;

/** A project in a business's list, with its best fit when it has been matched. */
export const ProjectSummaryView = ProjectView.extend({ best_match: BestMatchView.nullable() });
export type ProjectSummaryView = z.infer<typeof ProjectSummaryView>;
export const ProjectListView = pageOf(ProjectSummaryView);
export type ProjectListView = z.infer<typeof ProjectListView>;

export const MatchRunView = z.object({
  id: z.string(),
  status: z.enum(MATCH_RUN_STATUSES),
  progress: z.object({ step: z.string(), completed_units: z.number().int(), total_units: z.number().int() }),
  match_count: z.number().int(),
  can_retry: z.boolean(),
  attempt_sequence: z.number().int(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MatchRunView = z.infer<typeof MatchRunView>;
export const MatchRunListView = pageOf(MatchRunView);
export type MatchRunListView = z.infer<typeof MatchRunListView>;

/** Starting a run quotes the criteria revision the page shows (stale: 412 with the criteria as they are now). */
export const MatchRunStartInput = MatchRunStartBody;
export type MatchRunStartInput = z.infer<typeof MatchRunStartInput>;

const Range = z.object({ min: z.number(), max: z.number() });

/**
 * One funder's product ranked for the project. `etag` is what a shortlist or dismiss quotes in If-Match: the
 * match's ETag at the revision this view was read at (a match's ETag follows its revision alone, DESIGN.md §6).
 */
export const MatchView = z.object({
  id: z.string(),
  revision: z.number().int(),
  etag: z.string(),
  run_id: z.string(),
  recipient: z.object({ id: z.string(), name: z.string() }),
  product: z.object({ name: z.string(), kind: z.enum(PRODUCT_KINDS) }),
  score: z.number().int(),
  fit: z.enum(FITS),
  amount_range: Range.extend({ currency: z.string() }),
  rate_range: Range.nullable(),
  term_months: Range.nullable(),
  criteria: z.array(MatchCriterion),
  documents: z.array(MatchDocument),
  decision: z.enum(MATCH_DECISIONS),
  deal: z.object({ id: z.string() }).nullable(),
  stale: z.boolean(),
});
export type MatchView = z.infer<typeof MatchView>;
export const MatchPageView = pageOf(MatchView);
export type MatchPageView = z.infer<typeof MatchPageView>;

/** The lists' queries are the Portal's own (lib/portal ProjectsQuery and MatchesQuery), passed upstream unchanged. */
export type ProjectsQueryInput = z.infer<typeof ProjectsQuery>;

export const MATCH_DECISION_VERBS = ['shortlist', 'dismiss'] as const;
export type MatchDecisionVerb = (typeof MATCH_DECISION_VERBS)[number];
