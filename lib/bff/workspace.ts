import { z } from 'zod';

/**
 * The workspace (DESIGN.md §7): what the BFF's read model answers that the Portal cannot in one call. Every
 * view carries its freshness, because the rows are a copy kept by webhooks and the reconciler.
 */

/** Parts of a reconcile pass that may be skipped without failing it (the Portal does not offer them, or they failed). */
export const RECONCILE_STEPS = ['deals', 'deal_businesses', 'pending_suggestions', 'projects'] as const;
export type ReconcileStep = (typeof RECONCILE_STEPS)[number];
export const SkippedStep = z.object({ step: z.enum(RECONCILE_STEPS), why: z.enum(['not_offered', 'failed']) });
export type SkippedStep = z.infer<typeof SkippedStep>;

export const Freshness = z.object({
  /** When the last complete reconcile pass ended; null before the first. */
  reconciled_at: z.string().nullable(),
  /** When the last webhook event was applied; null before the first. */
  last_event_at: z.string().nullable(),
  /** A pass is under way (on this or another instance). */
  reconciling: z.boolean(),
  /** Why the last pass stopped, when it failed. */
  last_error: z.string().nullable(),
  /** What the last complete pass could not check. */
  skipped: z.array(SkippedStep),
});
export type Freshness = z.infer<typeof Freshness>;

export const INVITATION_STATES = ['sent', 'opened', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export const WorkspaceBusiness = z.object({
  id: z.string(),
  name: z.string().nullable(),
  contact_name: z.string().nullable(),
  contact_email: z.string().nullable(),
  pipeline: z.object({ id: z.string(), name: z.string() }).nullable(),
  stage: z.object({ id: z.string(), name: z.string() }).nullable(),
  application: z
    .object({
      id: z.string(),
      status: z.object({ key: z.string(), label: z.string() }).nullable(),
      progress_percent: z.number().int().nullable(),
      submitted_at: z.string().nullable(),
    })
    .nullable(),
  invitation: z.object({ state: z.enum(INVITATION_STATES), sent_at: z.string().nullable(), expires_at: z.string().nullable() }).nullable(),
  last_activity_at: z.string().nullable(),
  is_sample: z.boolean(),
});
export type WorkspaceBusiness = z.infer<typeof WorkspaceBusiness>;

/** The columns the businesses table sorts by. */
export const BUSINESS_SORTS = ['name', 'contact', 'stage', 'status', 'progress', 'submitted', 'activity'] as const;
export type BusinessSort = (typeof BUSINESS_SORTS)[number];

/** Progress filter buckets: nothing answered, part answered, all answered. */
export const PROGRESS_FILTERS = ['not_started', 'in_progress', 'complete'] as const;
export type ProgressFilter = (typeof PROGRESS_FILTERS)[number];

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Query of the businesses table (`GET /api/workspace/businesses`), also the page's URL state. */
export const WorkspaceBusinessesQuery = z.strictObject({
  q: z.preprocess(emptyToUndefined, z.string().trim().max(200).optional()),
  stage: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  /** An application status key, or `none` for businesses without an application status. */
  status: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  progress: z.preprocess(emptyToUndefined, z.enum(PROGRESS_FILTERS).optional()),
  sort: z.preprocess(emptyToUndefined, z.enum(BUSINESS_SORTS).optional()),
  dir: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc']).optional()),
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).optional()),
  page_size: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(100).optional()),
});
export type WorkspaceBusinessesQuery = z.infer<typeof WorkspaceBusinessesQuery>;

/** Newest activity first unless the person chose otherwise. */
export const DEFAULT_BUSINESS_SORT: { sort: BusinessSort; dir: 'asc' | 'desc' } = { sort: 'activity', dir: 'desc' };
export const DEFAULT_BUSINESS_PAGE_SIZE = 25;

export const WorkspaceBusinessPage = z.object({
  items: z.array(WorkspaceBusiness),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  sort: z.enum(BUSINESS_SORTS),
  dir: z.enum(['asc', 'desc']),
  /** What the filters can choose from, as the read model knows them. */
  stages: z.array(z.object({ id: z.string(), name: z.string() })),
  statuses: z.array(z.object({ key: z.string(), label: z.string() })),
  freshness: Freshness,
});
export type WorkspaceBusinessPage = z.infer<typeof WorkspaceBusinessPage>;

export const StageCount = z.object({
  pipeline: z.object({ id: z.string(), name: z.string() }),
  stage: z.object({ id: z.string(), name: z.string() }),
  count: z.number().int(),
});
export type StageCount = z.infer<typeof StageCount>;

/** An application with Autofill suggestions waiting for review. */
export const ReviewWaiting = z.object({
  application_id: z.string(),
  business: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  pending_count: z.number().int(),
  oldest_pending_at: z.string().nullable(),
});
export type ReviewWaiting = z.infer<typeof ReviewWaiting>;

/** Staff home: counts by stage and the lists that need someone. */
export const StaffHomeView = z.object({
  stage_counts: z.array(StageCount),
  total_businesses: z.number().int(),
  waiting_on_client: z.array(WorkspaceBusiness),
  /** N of "no activity for N days". */
  waiting_days: z.number().int(),
  recently_submitted: z.array(WorkspaceBusiness),
  review_waiting: z.array(ReviewWaiting),
  freshness: Freshness,
});
export type StaffHomeView = z.infer<typeof StaffHomeView>;

/** Reviewer inbox: applications with pending suggestions, oldest waiting first. */
export const ReviewInboxView = z.object({ items: z.array(ReviewWaiting), freshness: Freshness });
export type ReviewInboxView = z.infer<typeof ReviewInboxView>;

/** Reply of "Refresh now": a pass was asked for (this instance runs it, or another already does). */
export const ReconcileRequestedView = z.object({ freshness: Freshness });
export type ReconcileRequestedView = z.infer<typeof ReconcileRequestedView>;

/** `GET /api/workspace/reconcile`: freshness and what the last complete pass cost. */
export const ReconcileStatusView = z.object({
  freshness: Freshness,
  last_pass: z.object({ completed_at: z.string().nullable(), duration_ms: z.number().nullable(), upstream_calls: z.number().nullable() }),
});
export type ReconcileStatusView = z.infer<typeof ReconcileStatusView>;

export { ago } from './time-ago';

/** A card of the pipeline board: a business where the read model has it. */
export interface BoardCardView {
  id: string;
  name: string | null;
  stage_id: string;
  progress_percent: number | null;
  last_activity_at: string | null;
}

/** The pipeline board (`/businesses/board`): the pipeline's stages in order, each with its newest cards. */
export interface BoardView {
  pipeline: { id: string; name: string };
  pipelines: { id: string; name: string }[];
  stages: { id: string; name: string; closing: boolean; total: number }[];
  cards: BoardCardView[];
  /** Cards shown per stage at most (the busiest first by last activity); the rest are in the businesses table. */
  per_stage: number;
  freshness: Freshness;
}
