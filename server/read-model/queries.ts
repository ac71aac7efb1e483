import 'server-only';
import {
  DEFAULT_BUSINESS_PAGE_SIZE,
  DEFAULT_BUSINESS_SORT,
  type BusinessSort,
  type Freshness,
  type InvitationState,
  type ReviewWaiting,
  type StageCount,
  type WorkspaceBusiness,
  type WorkspaceBusinessPage,
  type WorkspaceBusinessesQuery,
} from '@/lib/bff/workspace';
import type { Db, SqlParam } from '@/server/db/types';
import { answersActivity } from './answers-activity';
import { isReconcilingHere } from './reconcile';
import { parseSkipped } from './skipped';

interface BusinessRow {
  id: string;
  name: string | null;
  contact_name: string | null;
  contact_email: string | null;
  pipeline_id: string | null;
  pipeline_name: string | null;
  stage_id: string | null;
  stage_name: string | null;
  is_sample: boolean;
  application_id: string | null;
  application_status: string | null;
  application_status_label: string | null;
  progress_percent: number | null;
  submitted_at: Date | null;
  invitation_state: 'sent' | 'opened' | 'revoked' | null;
  invitation_sent_at: Date | null;
  invitation_expires_at: Date | null;
  last_activity_at: Date | null;
}

const BUSINESS_COLUMNS = `id, name, contact_name, contact_email, pipeline_id, pipeline_name, stage_id, stage_name, is_sample, application_id,
  application_status, application_status_label, progress_percent, submitted_at, invitation_state, invitation_sent_at,
  invitation_expires_at, last_activity_at`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function invitationOf(r: BusinessRow, now: Date): WorkspaceBusiness['invitation'] {
  if (!r.invitation_state) return null;
  const expired = r.invitation_state !== 'revoked' && !!r.invitation_expires_at && r.invitation_expires_at <= now;
  const state: InvitationState = expired ? 'expired' : r.invitation_state;
  return { state, sent_at: iso(r.invitation_sent_at), expires_at: iso(r.invitation_expires_at) };
}

function businessView(r: BusinessRow, now: Date): WorkspaceBusiness {
  return {
    id: r.id,
    name: r.name,
    contact_name: r.contact_name,
    contact_email: r.contact_email,
    pipeline: r.pipeline_id && r.pipeline_name ? { id: r.pipeline_id, name: r.pipeline_name } : null,
    stage: r.stage_id && r.stage_name ? { id: r.stage_id, name: r.stage_name } : null,
    application: r.application_id
      ? {
          id: r.application_id,
          status: r.application_status ? { key: r.application_status, label: r.application_status_label ?? r.application_status } : null,
          progress_percent: r.progress_percent,
          submitted_at: iso(r.submitted_at),
        }
      : null,
    invitation: invitationOf(r, now),
    last_activity_at: iso(r.last_activity_at),
    is_sample: r.is_sample,
  };
}

/** An instance that has not written its progress for this long is taken to have stopped mid-pass. */
const STALLED_PASS_MS = 2 * 60_000;

/** How fresh the read model is: the last complete pass, the last event, and whether a pass is under way. */
export async function readFreshness(db: Db, now: Date = new Date()): Promise<Freshness> {
  const row = await db.one<{ pass_id: string | null; last_completed_at: Date | null; last_event_at: Date | null; last_error: string | null; skipped: string | null; updated_at: Date }>(
    'SELECT pass_id, last_completed_at, last_event_at, last_error, skipped, updated_at FROM workspace_sync WHERE name = $1',
    ['reconcile'],
  );
  // A pass keeps its id when it stops (to resume), with last_error set; a running one has none and writes often.
  const elsewhere = !!row?.pass_id && !row.last_error && now.getTime() - row.updated_at.getTime() < STALLED_PASS_MS;
  return {
    reconciled_at: iso(row?.last_completed_at ?? null),
    last_event_at: iso(row?.last_event_at ?? null),
    reconciling: isReconcilingHere() || elsewhere,
    last_error: row?.last_error ?? null,
    skipped: parseSkipped(row?.skipped ?? null),
  };
}

const SORT_SQL: Record<BusinessSort, string> = {
  name: 'lower(name)',
  contact: 'lower(contact_name)',
  stage: 'lower(stage_name)',
  status: 'lower(application_status_label)',
  progress: 'progress_percent',
  submitted: 'submitted_at',
  activity: 'last_activity_at',
};

/** `%`, `_` and `\` match themselves in a search. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface FilterChoices {
  stages: Array<{ id: string; name: string }>;
  statuses: Array<{ key: string; label: string }>;
}

// The filters' choices (stages and statuses present) need a pass over every row; they change seldom, so each
// process keeps them a few seconds rather than grouping 10,000 rows on every page of the table.
const CHOICES_TTL_MS = 10_000;
const choicesCache = new WeakMap<Db, { at: number; value: Promise<FilterChoices> }>();

function filterChoices(db: Db): Promise<FilterChoices> {
  const cached = choicesCache.get(db);
  if (cached && Date.now() - cached.at < CHOICES_TTL_MS) return cached.value;
  const value = Promise.all([
    db.query<{ id: string; name: string }>(
      `SELECT stage_id AS id, min(stage_name) AS name FROM workspace_businesses WHERE stage_id IS NOT NULL GROUP BY stage_id ORDER BY 2`,
    ),
    db.query<{ key: string; label: string | null }>(
      `SELECT application_status AS key, min(application_status_label) AS label FROM workspace_businesses
        WHERE application_status IS NOT NULL GROUP BY application_status ORDER BY 2`,
    ),
  ]).then(([stages, statuses]) => ({ stages, statuses: statuses.map((x) => ({ key: x.key, label: x.label ?? x.key })) }));
  choicesCache.set(db, { at: Date.now(), value });
  // An empty model (before the first pass) is not kept: the first rows must show their stages at once.
  value.then(
    (v) => v.stages.length === 0 && choicesCache.delete(db),
    () => choicesCache.delete(db),
  );
  return value;
}

/** The businesses table: searched, filtered, sorted and paged in the database. */
export async function listWorkspaceBusinesses(db: Db, q: WorkspaceBusinessesQuery, now: Date = new Date()): Promise<WorkspaceBusinessPage> {
  await answersActivity(db).settled();
  const where: string[] = [];
  const params: SqlParam[] = [];
  const bind = (v: SqlParam) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (q.q) where.push(`search_text LIKE ${bind(`%${likeEscape(q.q.toLowerCase())}%`)}`);
  if (q.stage) where.push(`stage_id = ${bind(q.stage)}`);
  if (q.status === 'none') where.push('application_status IS NULL');
  else if (q.status) where.push(`application_status = ${bind(q.status)}`);
  if (q.progress === 'not_started') where.push('COALESCE(progress_percent, 0) = 0');
  else if (q.progress === 'in_progress') where.push('progress_percent BETWEEN 1 AND 99');
  else if (q.progress === 'complete') where.push('progress_percent = 100');
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';

  const sort = q.sort ?? DEFAULT_BUSINESS_SORT.sort;
  const dir = q.dir ?? (q.sort ? 'asc' : DEFAULT_BUSINESS_SORT.dir);
  const pageSize = q.page_size ?? DEFAULT_BUSINESS_PAGE_SIZE;
  const page = q.page ?? 1;
  const order = `${SORT_SQL[sort]} ${dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, id ${dir === 'asc' ? 'ASC' : 'DESC'}`;

  const filterParams = [...params];
  // The page and the number of matching rows in one statement (the count is taken before LIMIT).
  const rows = await db.query<BusinessRow & { total_count: number }>(
    `SELECT ${BUSINESS_COLUMNS}, count(*) OVER ()::int AS total_count FROM workspace_businesses ${whereSql}
      ORDER BY ${order} LIMIT ${bind(pageSize)} OFFSET ${bind((page - 1) * pageSize)}`,
    params,
  );
  const [total, facets, freshness] = await Promise.all([
    // Past the last page there is no row to carry the count.
    rows[0] ? rows[0].total_count : db.one<{ n: number }>(`SELECT count(*)::int AS n FROM workspace_businesses ${whereSql}`, filterParams).then((r) => r?.n ?? 0),
    filterChoices(db),
    readFreshness(db, now),
  ]);
  const { stages, statuses } = facets;
  return {
    items: rows.map((r) => businessView(r, now)),
    total,
    page,
    page_size: pageSize,
    sort,
    dir,
    stages,
    statuses,
    freshness,
  };
}

/** One business's row, or null when the read model does not have it (yet). */
export async function readWorkspaceBusiness(db: Db, businessId: string, now: Date = new Date()): Promise<WorkspaceBusiness | null> {
  await answersActivity(db).settled();
  const row = await db.one<BusinessRow>(`SELECT ${BUSINESS_COLUMNS} FROM workspace_businesses WHERE id = $1`, [businessId]);
  return row ? businessView(row, now) : null;
}

/** How many businesses are at each stage, per pipeline. */
export async function stageCounts(db: Db): Promise<StageCount[]> {
  const rows = await db.query<{ pipeline_id: string; pipeline_name: string; stage_id: string; stage_name: string; n: number }>(
    `SELECT pipeline_id, min(pipeline_name) AS pipeline_name, stage_id, min(stage_name) AS stage_name, count(*)::int AS n
       FROM workspace_businesses WHERE stage_id IS NOT NULL AND pipeline_id IS NOT NULL
      GROUP BY pipeline_id, stage_id ORDER BY 2, 4`,
  );
  return rows.map((r) => ({ pipeline: { id: r.pipeline_id, name: r.pipeline_name }, stage: { id: r.stage_id, name: r.stage_name }, count: r.n }));
}

const DAY_MS = 86_400_000;

/** Invited, not submitted, and nothing happened for `days` days: oldest activity first. */
export async function waitingOnClient(db: Db, days: number, limit: number, now: Date = new Date()): Promise<WorkspaceBusiness[]> {
  const rows = await db.query<BusinessRow>(
    `SELECT ${BUSINESS_COLUMNS} FROM workspace_businesses
      WHERE invitation_state IN ('sent', 'opened') AND submitted_at IS NULL AND last_activity_at < $1
      ORDER BY last_activity_at ASC, id LIMIT $2`,
    [new Date(now.getTime() - days * DAY_MS), limit],
  );
  return rows.map((r) => businessView(r, now));
}

export async function recentlySubmitted(db: Db, limit: number, now: Date = new Date()): Promise<WorkspaceBusiness[]> {
  const rows = await db.query<BusinessRow>(
    `SELECT ${BUSINESS_COLUMNS} FROM workspace_businesses WHERE submitted_at IS NOT NULL ORDER BY submitted_at DESC, id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => businessView(r, now));
}

/** Applications with pending Autofill suggestions, the longest waiting first. */
export async function reviewWaiting(db: Db, limit: number): Promise<ReviewWaiting[]> {
  const rows = await db.query<{ application_id: string; business_id: string | null; name: string | null; pending_count: number; oldest_pending_at: Date | null }>(
    `SELECT s.application_id, b.id AS business_id, b.name, s.pending_count, s.oldest_pending_at
       FROM workspace_suggestions s LEFT JOIN workspace_businesses b ON b.application_id = s.application_id
      WHERE s.pending_count > 0 ORDER BY s.oldest_pending_at ASC NULLS LAST, s.application_id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    application_id: r.application_id,
    business: r.business_id ? { id: r.business_id, name: r.name } : null,
    pending_count: r.pending_count,
    oldest_pending_at: iso(r.oldest_pending_at),
  }));
}

/** The business of each deal the read model knows it for. */
export async function businessesOfDeals(db: Db, dealIds: readonly string[]): Promise<Map<string, { id: string; name: string | null }>> {
  if (dealIds.length === 0) return new Map();
  const rows = await db.query<{ deal_id: string; id: string; name: string | null }>(
    `SELECT d.id AS deal_id, d.business_id AS id, b.name FROM workspace_deals d
       LEFT JOIN workspace_businesses b ON b.id = d.business_id WHERE d.id = ANY($1::text[]) AND d.business_id IS NOT NULL`,
    [dealIds],
  );
  return new Map(rows.map((r) => [r.deal_id, { id: r.id, name: r.name }]));
}

export interface WorkspaceDeal {
  id: string;
  name: string;
  recipient_name: string | null;
  stage: { id: string; name: string } | null;
  status: string | null;
  created_at: string | null;
}

/** A business's deals as the read model knows them, newest first. */
export async function dealsOfBusiness(db: Db, businessId: string): Promise<WorkspaceDeal[]> {
  const rows = await db.query<{ id: string; name: string; recipient_name: string | null; stage_id: string | null; stage_name: string | null; status: string | null; created_at: Date | null }>(
    `SELECT id, name, recipient_name, stage_id, stage_name, status, created_at FROM workspace_deals
      WHERE business_id = $1 ORDER BY created_at DESC NULLS LAST, id`,
    [businessId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    recipient_name: r.recipient_name,
    stage: r.stage_id && r.stage_name ? { id: r.stage_id, name: r.stage_name } : null,
    status: r.status,
    created_at: iso(r.created_at),
  }));
}

export interface WorkspaceProject {
  id: string;
  business_id: string;
  name: string;
  status: string;
  best_fit: string | null;
  best_score: number | null;
  match_count: number | null;
  created_at: string | null;
}

/** A business's funding projects (DESIGN.md §6), newest first. */
export async function projectsOfBusiness(db: Db, businessId: string): Promise<WorkspaceProject[]> {
  const rows = await db.query<{ id: string; business_id: string; name: string; status: string; best_fit: string | null; best_score: number | null; match_count: number | null; created_at: Date | null }>(
    `SELECT id, business_id, name, status, best_fit, best_score, match_count, created_at FROM workspace_projects
      WHERE business_id = $1 ORDER BY created_at DESC NULLS LAST, id`,
    [businessId],
  );
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
}

/** What the last complete pass cost (the benchmark and the tests read it). */
export async function readLastPass(db: Db): Promise<{ completed_at: string | null; duration_ms: number | null; upstream_calls: number | null }> {
  const row = await db.one<{ last_completed_at: Date | null; last_duration_ms: number | null; last_calls: number | null }>(
    'SELECT last_completed_at, last_duration_ms, last_calls FROM workspace_sync WHERE name = $1',
    ['reconcile'],
  );
  return { completed_at: iso(row?.last_completed_at ?? null), duration_ms: row?.last_duration_ms ?? null, upstream_calls: row?.last_calls ?? null };
}

/** The business an intake application belongs to, as the read model knows it (null when it does not). */
export async function businessOfApplicationRow(db: Db, applicationId: string): Promise<{ id: string; name: string | null } | null> {
  return db.one<{ id: string; name: string | null }>('SELECT id, name FROM workspace_businesses WHERE application_id = $1', [applicationId]);
}
