/** How far a running match run has got (`match_run.progress`, DESIGN.md §6). */
export interface RunProgressView {
  run_id: string;
  attempt_sequence: number;
  status: string;
  step: string;
  completed_units: number;
  total_units: number;
}

/**
 * One change announced to the browsers that have the object open (GET /api/events, server-sent events).
 * It names what changed, not how: the page reads the object again. `answers_revision` lets a page skip
 * the read when it already holds that revision (its own save coming back); `run_progress` carries a match
 * run's progress whole, so a progress bar moves without a read per event.
 */
export interface LiveEventView {
  /** The webhook-id of the Portal's delivery. */
  id: string;
  type: string;
  occurred_at: string | null;
  application_id: string | null;
  business_id: string | null;
  deal_id: string | null;
  /** A funding project's events (DESIGN.md §6): its criteria, runs and matches. */
  project_id: string | null;
  answers_revision: number | null;
  run_progress: RunProgressView | null;
}

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

function isRunProgress(v: unknown): v is RunProgressView {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    typeof p.run_id === 'string' &&
    typeof p.status === 'string' &&
    typeof p.step === 'string' &&
    isCount(p.attempt_sequence) &&
    isCount(p.completed_units) &&
    isCount(p.total_units)
  );
}

const ID_FIELDS = ['occurred_at', 'application_id', 'business_id', 'deal_id', 'project_id'] as const;

/**
 * Whether a message of the stream is an event. Checked by hand, not with zod, to keep zod out of every page
 * that listens: the BFF wrote the message itself; this only drops what a page could not read.
 */
export function isLiveEvent(data: unknown): data is LiveEventView {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  const revision = d.answers_revision;
  return (
    typeof d.id === 'string' &&
    typeof d.type === 'string' &&
    ID_FIELDS.every((k) => d[k] === null || typeof d[k] === 'string') &&
    (revision === null || Number.isInteger(revision)) &&
    (d.run_progress === null || isRunProgress(d.run_progress))
  );
}

/**
 * Not Portal events. Resync: the stream (re)connected after a gap in which events may have been missed,
 * so the page should read again (sent by the server when its listener reconnected, and by the browser's
 * hook when its stream did). Session ended: the stream closes for good; reconnecting would be refused.
 */
export const LIVE_RESYNC = 'live.resync';
/** The BFF's own event: an application's review moved (its state, requests or marks); its answers did not. */
export const REVIEW_CHANGED = 'application.review_changed';
export const LIVE_SESSION_ENDED = 'live.session_ended';

/** What a page's handler gets: a Portal event, or word to read everything again. */
export type LiveMessageView = LiveEventView | { type: typeof LIVE_RESYNC };

/**
 * What an open form reads on a live message: nothing when it names an answers_revision the page already holds
 * (its own save coming back); the application's other queries only when its review moved (a mark, a request, a
 * state: no answer changed); otherwise those and the form itself.
 */
export function formReadsFor(m: LiveMessageView, heldRevision: number): 'nothing' | 'others' | 'form' {
  if (m.type === LIVE_RESYNC) return 'form';
  if ('answers_revision' in m && m.answers_revision !== null && m.answers_revision <= heldRevision) return 'nothing';
  return m.type === REVIEW_CHANGED ? 'others' : 'form';
}
