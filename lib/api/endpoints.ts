import type { AnswersPageView, AnswersWriteResult, ApplicationView, ContractView } from '@/lib/bff/applications';
import type { AuditPageView } from '@/lib/bff/audit';
import type { SessionView, SignInBody } from '@/lib/bff/auth';
import type { EvidenceUploadReply, PreparationReply, PreparationUpdate, RunReply, RunsPageView, StartRequest, SuggestionAcceptReply, SuggestionDismissReply, SuggestionsPageView, UnusedTextView } from '@/lib/bff/autofill';
import type { BusinessCreatedView, BusinessCreateInput, BusinessListView, BusinessStageTransitionView, BusinessView, PeopleView, PipelineListView, PortalView, StagesView, UploadResultView } from '@/lib/bff/businesses';
import type { DealCreateInput, DealListView, DealView, RecipientListView } from '@/lib/bff/deals';
import type { FileDeleteResult, FilesPageView, FileUploadResult } from '@/lib/bff/files';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { HistoryPageView, HistoryQuery } from '@/lib/bff/history';
import type { ChangeRequestCreateBody, ChangeRequestReplyBody, ChangeRequestResolveBody, ReviewReply } from '@/lib/bff/review';
import type { ReviewMarkBody, ReviewMarksReply } from '@/lib/bff/review-marks';
import type { InvitationAcceptBody, InvitationAccepted, InvitationCreateBody, InvitationCreated, InvitationList, InvitationView, ClientPlaceBody } from '@/lib/bff/invitations';
import type { MessageQueued, OutboxPage } from '@/lib/bff/messages';
import type { InvitationRemindersView, RemindersPauseBody, UnsubscribeReply } from '@/lib/bff/reminders';
import type { ItemCreateBody, ItemDeleteResult, ItemsPageView, ItemUpdateBody, ItemWriteResult } from '@/lib/bff/items';
import type { MatchPageView, MatchRunListView, MatchRunStartInput, MatchRunView, MatchView, ProjectCreateInput, ProjectListView, ProjectView } from '@/lib/bff/projects';
import type { AnswersUpdateBody } from '@/lib/portal';
import type { ReconcileRequestedView, ReconcileStatusView, ReviewInboxView, StaffHomeView, WorkspaceBusinessPage } from '@/lib/bff/workspace';
import { endpoint } from './endpoint';

/**
 * Every /api route the app has, in one place: its method, path and (as types) query, body and reply. The
 * route files under app/api answer with handlers typed by these (server/http/route.ts) and the browser calls
 * them through lib/api/client.ts; tests/unit/route-catalog.test.ts checks each has its route file and each
 * route file its endpoint.
 */

/** A page of a list: `page_size` and the cursor of the page before. */
type Page = { page_size?: number; cursor?: string | null };

export interface ApplicationReply {
  application: ApplicationView;
}
export interface ContractReply {
  contract: ContractView;
}
export interface BusinessReply {
  business: BusinessView;
}
export interface DealReply {
  deal: DealView;
}
export interface ProjectReply {
  project: ProjectView;
}
export interface MatchRunReply {
  run: MatchRunView;
}
export interface MatchReply {
  match: MatchView;
}
export interface InvitationReply {
  invitation: InvitationView;
}

/** The routes of an application-like resource the contract-driven form works on, below its base (`{form}`). */
export const formApi = {
  application: { GET: endpoint<{ reply: ApplicationReply }>()('GET', '{form}') },
  contract: { GET: endpoint<{ reply: ContractReply }>()('GET', '{form}/contract') },
  /** `rest`: the token of the whole form the page's server read (form-handover), for the first read only. */
  form: { GET: endpoint<{ reply: FormSnapshotView; query: { rest?: string } }>()('GET', '{form}/form') },
  answers: {
    GET: endpoint<{ reply: AnswersPageView; query: Page }>()('GET', '{form}/answers'),
    PATCH: endpoint<{ reply: AnswersWriteResult; body: AnswersUpdateBody }>()('PATCH', '{form}/answers'),
  },
  /** The changes of one answer, or of every answer, newest first (the BFF's own record: DESIGN §9). */
  history: { GET: endpoint<{ reply: HistoryPageView; query: HistoryQuery }>()('GET', '{form}/answers/history') },
  itemGroup: {
    GET: endpoint<{ reply: ItemsPageView; query: Page & { parent_item_id?: string } }>()('GET', '{form}/items/[blockKey]'),
    POST: endpoint<{ reply: ItemWriteResult; body: ItemCreateBody }>()('POST', '{form}/items/[blockKey]'),
  },
  item: {
    PATCH: endpoint<{ reply: ItemWriteResult; body: ItemUpdateBody }>()('PATCH', '{form}/items/[blockKey]/[itemId]'),
    DELETE: endpoint<{ reply: ItemDeleteResult }>()('DELETE', '{form}/items/[blockKey]/[itemId]'),
  },
  files: {
    /** Every file of the application's file questions, a page at a time. */
    GET: endpoint<{ reply: FilesPageView; query: Page }>()('GET', '{form}/files'),
    /** The bytes of one file of a file question (streamed by lib/api/upload-file.ts). */
    POST: endpoint<{
      reply: FileUploadResult;
      query: { block_key: string; schema_key: string; field_key: string; item_id?: string | null };
    }>()('POST', '{form}/files'),
  },
  file: { DELETE: endpoint<{ reply: FileDeleteResult }>()('DELETE', '{form}/files/[fileId]') },
  /** The file's bytes (a link, not a fetch). */
  fileDownload: { GET: endpoint<{ reply: Blob }>()('GET', '{form}/files/[fileId]/download') },
  submit: { POST: endpoint<{ reply: ApplicationReply }>()('POST', '{form}/submit') },
} as const;

export type FormApi = typeof formApi;

/** An intake application's Autofill: preparation, evidence, runs and their suggestions. */
export const autofillApi = {
  preparation: {
    GET: endpoint<{ reply: PreparationReply }>()('GET', '/api/applications/[applicationId]/autofill/preparation'),
    PATCH: endpoint<{ reply: PreparationReply; body: PreparationUpdate }>()('PATCH', '/api/applications/[applicationId]/autofill/preparation'),
  },
  evidence: { POST: endpoint<{ reply: EvidenceUploadReply }>()('POST', '/api/applications/[applicationId]/autofill/preparation/files') },
  evidenceFile: {
    DELETE: endpoint<{ reply: PreparationReply }>()('DELETE', '/api/applications/[applicationId]/autofill/preparation/files/[evidenceId]'),
  },
  start: { POST: endpoint<{ reply: RunReply; body: StartRequest }>()('POST', '/api/applications/[applicationId]/autofill/start') },
  runs: { GET: endpoint<{ reply: RunsPageView; query: Page }>()('GET', '/api/applications/[applicationId]/autofill/runs') },
  run: { GET: endpoint<{ reply: RunReply }>()('GET', '/api/applications/[applicationId]/autofill/runs/[runId]') },
  runRetry: { POST: endpoint<{ reply: RunReply }>()('POST', '/api/applications/[applicationId]/autofill/runs/[runId]/retry') },
  runSuggestions: {
    GET: endpoint<{ reply: SuggestionsPageView; query: Page }>()('GET', '/api/applications/[applicationId]/autofill/runs/[runId]/suggestions'),
  },
  runUnusedText: { GET: endpoint<{ reply: UnusedTextView }>()('GET', '/api/applications/[applicationId]/autofill/runs/[runId]/unused-text') },
  suggestionAccept: {
    POST: endpoint<{ reply: SuggestionAcceptReply }>()('POST', '/api/applications/[applicationId]/autofill/suggestions/[suggestionId]/accept'),
  },
  suggestionDismiss: {
    POST: endpoint<{ reply: SuggestionDismissReply }>()('POST', '/api/applications/[applicationId]/autofill/suggestions/[suggestionId]/dismiss'),
  },
} as const;

export const authApi = {
  session: { GET: endpoint<{ reply: { session: SessionView | null } }>()('GET', '/api/auth/session') },
  signIn: { POST: endpoint<{ reply: { session: SessionView }; body: SignInBody }>()('POST', '/api/auth/sign-in') },
  signOut: { POST: endpoint<{ reply: { signed_out: true } }>()('POST', '/api/auth/sign-out') },
} as const;

/** Server-sent events of the objects named in the query (an EventSource, not a fetch). */
export const eventsApi = {
  GET: endpoint<{ reply: never; query: { application_id?: string; business_id?: string; deal_id?: string; project_id?: string } }>()('GET', '/api/events'),
} as const;

export const portalApi = { GET: endpoint<{ reply: PortalView }>()('GET', '/api/portal') } as const;

export const recipientsApi = { GET: endpoint<{ reply: RecipientListView; query: Page }>()('GET', '/api/recipients') } as const;

export const businessPipelinesApi = { GET: endpoint<{ reply: PipelineListView; query: Page }>()('GET', '/api/business-pipelines') } as const;

export const dealPipelinesApi = { GET: endpoint<{ reply: PipelineListView; query: Page }>()('GET', '/api/deal-pipelines') } as const;

export const businessesApi = {
  GET: endpoint<{ reply: BusinessListView; query: Page }>()('GET', '/api/businesses'),
  POST: endpoint<{ reply: BusinessCreatedView; body: BusinessCreateInput }>()('POST', '/api/businesses'),
} as const;

export const businessApi = { GET: endpoint<{ reply: BusinessReply }>()('GET', '/api/businesses/[businessId]') } as const;

export const businessPeopleApi = { GET: endpoint<{ reply: PeopleView }>()('GET', '/api/businesses/[businessId]/people') } as const;

export const businessStagesApi = { GET: endpoint<{ reply: StagesView }>()('GET', '/api/businesses/[businessId]/stages') } as const;

export const businessStageTransitionsApi = {
  POST: endpoint<{ reply: { transition: BusinessStageTransitionView }; body: { stage_id: string } }>()('POST', '/api/businesses/[businessId]/stage-transitions'),
} as const;

/** The bytes of a document for one of the new business's upload slots (streamed by lib/api/upload-business-document.ts). */
export const businessUploadApi = { POST: endpoint<{ reply: { upload: UploadResultView }; query: { filename: string } }>()('POST', '/api/businesses/[businessId]/uploads/[uploadId]') } as const;

/** Deals, a page at a time; `business_id` narrows them to one business's. */
export const dealsApi = {
  GET: endpoint<{ reply: DealListView; query: Page & { business_id?: string } }>()('GET', '/api/deals'),
  POST: endpoint<{ reply: DealReply; body: DealCreateInput }>()('POST', '/api/deals'),
} as const;

/** Every deal as CSV (a link, not a fetch). */
export const dealsCsvApi = { GET: endpoint<{ reply: Blob }>()('GET', '/api/deals/csv') } as const;

export const dealApi = { GET: endpoint<{ reply: DealReply }>()('GET', '/api/deals/[dealId]') } as const;

export const dealStagesApi = { GET: endpoint<{ reply: StagesView }>()('GET', '/api/deals/[dealId]/stages') } as const;

export const dealStageTransitionsApi = { POST: endpoint<{ reply: DealReply; body: { stage_id: string } }>()('POST', '/api/deals/[dealId]/stage-transitions') } as const;

export const invitationRevokeApi = { POST: endpoint<{ reply: InvitationReply }>()('POST', '/api/invitations/[invitationId]/revoke') } as const;

/** Staff mail an invitation's link again (a copy of its first mail, delivered anew). */
export const invitationResendApi = { POST: endpoint<{ reply: MessageQueued }>()('POST', '/api/invitations/[invitationId]/resend') } as const;

/** An invitation's reminders (staff): read them, pause or resume them, send one now (rate-limited). */
export const invitationRemindersApi = {
  GET: endpoint<{ reply: InvitationRemindersView }>()('GET', '/api/invitations/[invitationId]/reminders'),
  PUT: endpoint<{ reply: InvitationRemindersView; body: RemindersPauseBody }>()('PUT', '/api/invitations/[invitationId]/reminders'),
} as const;
export const invitationReminderNowApi = { POST: endpoint<{ reply: MessageQueued }>()('POST', '/api/invitations/[invitationId]/reminders/now') } as const;

/** The one-click unsubscribe address of reminder mail (RFC 8058): a POST unsubscribes, a GET leads to the page asking. */
export const unsubscribeApi = {
  GET: endpoint<{ reply: Blob }>()('GET', '/api/unsubscribe/[token]'),
  POST: endpoint<{ reply: UnsubscribeReply }>()('POST', '/api/unsubscribe/[token]'),
} as const;

/** Every message the app sends, with its status and bodies (the Outbox page). */
export const outboxApi = { GET: endpoint<{ reply: OutboxPage }>()('GET', '/api/outbox') } as const;

/** A signed-in person continues as the invited client of a link (its confirmation page). */
export const invitationAcceptApi = { POST: endpoint<{ reply: InvitationAccepted; body: InvitationAcceptBody }>()('POST', '/api/invitations/accept') } as const;

/** An intake application's own routes besides the form's (formApi, below `/api/applications/[applicationId]`). */
export const applicationApi = {
  audit: { GET: endpoint<{ reply: AuditPageView; query: { before?: number; limit?: number } }>()('GET', '/api/applications/[applicationId]/audit') },
  invitations: {
    GET: endpoint<{ reply: InvitationList }>()('GET', '/api/applications/[applicationId]/invitations'),
    POST: endpoint<{ reply: InvitationCreated; body: InvitationCreateBody }>()('POST', '/api/applications/[applicationId]/invitations'),
  },
  place: { PUT: endpoint<{ reply: ClientPlaceBody; body: ClientPlaceBody }>()('PUT', '/api/applications/[applicationId]/place') },
  /** The application as a PDF for a funder or the client's records (a link, not a fetch). */
  pdf: { GET: endpoint<{ reply: Blob }>()('GET', '/api/applications/[applicationId]/pdf') },
  /** The funder package: a ZIP of the PDF and every document (a link, not a fetch). */
  package: { GET: endpoint<{ reply: Blob }>()('GET', '/api/applications/[applicationId]/package') },
  /** Review before submit (DESIGN.md §9): the state and change requests; every action quotes the review's ETag (If-Match). */
  review: { GET: endpoint<{ reply: ReviewReply }>()('GET', '/api/applications/[applicationId]/review') },
  reviewSend: { POST: endpoint<{ reply: ReviewReply }>()('POST', '/api/applications/[applicationId]/review/send') },
  reviewRequests: { POST: endpoint<{ reply: ReviewReply; body: ChangeRequestCreateBody }>()('POST', '/api/applications/[applicationId]/review/requests') },
  reviewReturn: { POST: endpoint<{ reply: ReviewReply }>()('POST', '/api/applications/[applicationId]/review/return') },
  reviewReplies: { POST: endpoint<{ reply: ReviewReply; body: ChangeRequestReplyBody }>()('POST', '/api/applications/[applicationId]/review/replies') },
  reviewResolve: { POST: endpoint<{ reply: ReviewReply; body: ChangeRequestResolveBody }>()('POST', '/api/applications/[applicationId]/review/resolve') },
  /** Review mode: the answers to review with staff's "Looks right" marks; a mark quotes the answer's own ETag (If-Match). */
  reviewMarks: {
    GET: endpoint<{ reply: ReviewMarksReply }>()('GET', '/api/applications/[applicationId]/review/marks'),
    POST: endpoint<{ reply: ReviewMarksReply; body: ReviewMarkBody }>()('POST', '/api/applications/[applicationId]/review/marks'),
  },
} as const;

/** Funding projects (DESIGN.md §6): a business's list (business_id), one project, its runs and matches; its criteria are a form (formApi). */
export const projectsApi = {
  GET: endpoint<{ reply: ProjectListView; query: Page & { business_id?: string } }>()('GET', '/api/projects'),
  POST: endpoint<{ reply: ProjectReply; body: ProjectCreateInput }>()('POST', '/api/projects'),
} as const;

export const projectApi = { GET: endpoint<{ reply: ProjectReply }>()('GET', '/api/projects/[projectId]') } as const;

export const projectRunsApi = {
  GET: endpoint<{ reply: MatchRunListView; query: Page }>()('GET', '/api/projects/[projectId]/runs'),
  POST: endpoint<{ reply: MatchRunReply; body: MatchRunStartInput }>()('POST', '/api/projects/[projectId]/runs'),
} as const;

export const projectRunApi = { GET: endpoint<{ reply: MatchRunReply }>()('GET', '/api/projects/[projectId]/runs/[runId]') } as const;

export const projectRunRetryApi = { POST: endpoint<{ reply: MatchRunReply }>()('POST', '/api/projects/[projectId]/runs/[runId]/retry') } as const;

export const projectMatchesApi = {
  GET: endpoint<{ reply: MatchPageView; query: Page & { fit?: string | null; product_kind?: string | null } }>()('GET', '/api/projects/[projectId]/matches'),
} as const;

/** The matches as CSV, with the list's filters (a link, not a fetch). */
export const projectMatchesCsvApi = {
  GET: endpoint<{ reply: Blob; query: { fit?: string | null; product_kind?: string | null } }>()('GET', '/api/projects/[projectId]/matches/csv'),
} as const;

export const matchShortlistApi = { POST: endpoint<{ reply: MatchReply }>()('POST', '/api/projects/[projectId]/matches/[matchId]/shortlist') } as const;

export const matchDismissApi = { POST: endpoint<{ reply: MatchReply }>()('POST', '/api/projects/[projectId]/matches/[matchId]/dismiss') } as const;

/** The workspace's read model (DESIGN.md §7). */
export const workspaceApi = {
  businesses: {
    GET: endpoint<{ reply: WorkspaceBusinessPage; query: Record<string, string | number | null | undefined> }>()('GET', '/api/workspace/businesses'),
  },
  /** The table as CSV, with its search, filters and sort (a link, not a fetch). */
  businessesCsv: {
    GET: endpoint<{ reply: Blob; query: Record<string, string | number | null | undefined> }>()('GET', '/api/workspace/businesses/csv'),
  },
  home: { GET: endpoint<{ reply: StaffHomeView }>()('GET', '/api/workspace/home') },
  reviewInbox: { GET: endpoint<{ reply: ReviewInboxView }>()('GET', '/api/workspace/review-inbox') },
  reconcile: {
    GET: endpoint<{ reply: ReconcileStatusView }>()('GET', '/api/workspace/reconcile'),
    POST: endpoint<{ reply: ReconcileRequestedView }>()('POST', '/api/workspace/reconcile'),
  },
} as const;

/** The invitation link a client opens (a redirect into the app, not an /api route). */
export const inviteApi = { GET: endpoint<{ reply: never }>()('GET', '/invite/[token]') } as const;

export const webhooksApi = { POST: endpoint<{ reply: { received: boolean; id: string; duplicate?: boolean } }>()('POST', '/api/webhooks/portal') } as const;

/** The probes and the metrics of whoever runs the app (no session: a load balancer, an orchestrator, Prometheus). */
export const opsApi = {
  health: { GET: endpoint<{ reply: { status: 'ok'; phase: string; uptime_s: number } }>()('GET', '/api/health') },
  ready: { GET: endpoint<{ reply: { ready: boolean; phase: string; checks: Record<string, { ok: boolean; reason?: string }> } }>()('GET', '/api/ready') },
  /** Prometheus text, not JSON. */
  metrics: { GET: endpoint<{ reply: string }>()('GET', '/api/metrics') },
} as const;

/** Every route, grouped as above (the server and the tests take it whole; the browser imports the groups it calls, so a page carries only those). */
export const api = {
  auth: authApi,
  events: eventsApi,
  portal: portalApi,
  recipients: recipientsApi,
  businessPipelines: businessPipelinesApi,
  dealPipelines: dealPipelinesApi,
  businesses: businessesApi,
  business: businessApi,
  businessPeople: businessPeopleApi,
  businessStages: businessStagesApi,
  businessStageTransitions: businessStageTransitionsApi,
  businessUpload: businessUploadApi,
  deals: dealsApi,
  dealsCsv: dealsCsvApi,
  deal: dealApi,
  dealStages: dealStagesApi,
  dealStageTransitions: dealStageTransitionsApi,
  invitationRevoke: invitationRevokeApi,
  invitationAccept: invitationAcceptApi,
  invitationResend: invitationResendApi,
  outbox: outboxApi,
  invitationReminders: invitationRemindersApi,
  invitationReminderNow: invitationReminderNowApi,
  unsubscribe: unsubscribeApi,
  application: { ...applicationApi, autofill: autofillApi },
  projects: projectsApi,
  project: projectApi,
  projectRuns: projectRunsApi,
  projectRun: projectRunApi,
  projectRunRetry: projectRunRetryApi,
  projectMatches: projectMatchesApi,
  projectMatchesCsv: projectMatchesCsvApi,
  matchShortlist: matchShortlistApi,
  matchDismiss: matchDismissApi,
  workspace: workspaceApi,
  invite: inviteApi,
  webhooks: webhooksApi,
  ops: opsApi,
} as const;
