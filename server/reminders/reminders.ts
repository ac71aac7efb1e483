import 'server-only';
import type PgBoss from 'pg-boss';
import { newId } from '@/server/db/ids';
import { jsonRows } from '@/server/db/json-rows';
import type { Db } from '@/server/db/types';
import type { Env } from '@/server/env/types';
import type { InvitationRow } from '@/server/invitations/invitation-record';
import { bossDb, REMINDER_QUEUE } from '@/server/messages/job-queue';
import { queueMessages, rendered, type NewMessage, type OutboxRow, type StoredOutboxRow } from '@/server/messages/outbox';
import { isQuiet, isTimeZone, longDate, outsideQuietHours, planSteps, type PlannedStep } from './schedule';
import { unsubscribeUrl } from './unsubscribe-link';

export interface ReminderPlan {
  dueAt: Date | null;
  /** The zone the plan is made in: the one staff gave, else the settings'. */
  timeZone: string;
  /** Staff gave the zone: kept, and never replaced by the one the client's browser reports. */
  timeZoneGiven: boolean;
  /** Days after the invitation; empty: no scheduled reminders (an overdue one still goes with a due date). */
  days: readonly number[];
}

type ReminderSettings = Pick<Env, 'reminderTimeScale' | 'reminderQuietHours'>;

export interface StepJob {
  invitationId: string;
  step: string;
}

/** A woken step with the queue's id of the job that woke it (none when staff send one now). */
export type WokenStep = StepJob & { jobId?: string };

const stepKey = (invitationId: string, step: string) => `${invitationId}:${step}`;

async function wake(db: Db, boss: PgBoss, invitationId: string, step: string, at: Date): Promise<void> {
  await boss.send(REMINDER_QUEUE, { invitationId, step } satisfies StepJob, { db: bossDb(db), singletonKey: stepKey(invitationId, step), startAfter: at });
}

/**
 * Gives a new invitation its plan and schedules its steps: a row per step (the record of what is due and what
 * was sent) and a job that wakes it, both on `tx` so they commit with the invitation.
 */
export async function scheduleReminders(
  tx: Db,
  boss: PgBoss,
  invitation: { id: string; createdAt: Date; expiresAt: Date },
  plan: ReminderPlan,
  settings: ReminderSettings,
): Promise<PlannedStep[]> {
  await tx.query(`UPDATE invitations SET due_at = $2, time_zone = $3, reminder_days = $4::jsonb WHERE id = $1`, [invitation.id, plan.dueAt, plan.timeZoneGiven ? plan.timeZone : null, JSON.stringify(plan.days)]);
  const steps = planSteps({
    createdAt: invitation.createdAt,
    days: plan.days,
    dueAt: plan.dueAt,
    expiresAt: invitation.expiresAt,
    scale: settings.reminderTimeScale,
    timeZone: plan.timeZone,
    quiet: settings.reminderQuietHours,
  });
  for (const s of steps) {
    await tx.query(`INSERT INTO reminder_steps (invitation_id, step, kind, due_at, updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [invitation.id, s.step, s.kind, s.at, invitation.createdAt]);
    await wake(tx, boss, invitation.id, s.step, s.at);
  }
  return steps;
}

/** Ends the invitation's pending steps (submitted, revoked, unsubscribed): they stay listed, with the reason. */
export async function stopReminders(db: Db, where: { invitationId: string } | { applicationId: string }, reason: string, now: Date = new Date()): Promise<void> {
  const [filter, value] =
    'invitationId' in where ? ['invitation_id = $1', where.invitationId] : ['invitation_id IN (SELECT id FROM invitations WHERE application_id = $1)', where.applicationId];
  await db.query(`UPDATE reminder_steps SET status = 'skipped', outcome = $2, updated_at = $3 WHERE status = 'scheduled' AND ${filter}`, [value, reason, now]);
}

/** A step with its invitation (its columns of invitation-record, and the reminder plan's), inviter and read-model row. */
interface StepState extends Pick<InvitationRow, 'id' | 'application_id' | 'business_id' | 'client_email' | 'client_name' | 'created_by' | 'expires_at' | 'revoked_at' | 'first_used_at'> {
  step: string;
  kind: 'reminder' | 'overdue' | 'manual';
  step_due_at: Date;
  status: 'scheduled' | 'sent' | 'skipped';
  due_at: Date | null;
  time_zone: string | null;
  reminders_paused_at: Date | null;
  unsubscribed_at: Date | null;
  inviter_name: string;
  inviter_email: string;
  inviter_disabled_at: Date | null;
  business_name: string | null;
  progress_percent: number | null;
  submitted_at: Date | null;
  /** What the client still has to do, as a form read last found it; null before any read. */
  sections_left: string[] | null;
  documents_left: string[] | null;
  /** The link the invitation's first mail carried (its token is kept nowhere else), or null. */
  link: string | null;
}

const STATE_SQL = `
SELECT s.step, s.kind, s.due_at AS step_due_at, s.status,
       i.id, i.application_id, i.business_id, i.client_email, i.client_name, i.created_by, i.expires_at, i.revoked_at, i.first_used_at,
       i.due_at, i.time_zone, i.reminders_paused_at, i.unsubscribed_at,
       u.name AS inviter_name, u.email AS inviter_email, u.disabled_at AS inviter_disabled_at,
       w.name AS business_name, w.progress_percent, w.submitted_at,
       l.sections AS sections_left, l.documents AS documents_left,
       (SELECT o.action_url FROM outbox o WHERE o.invitation_id = i.id AND o.template = 'invitation' AND o.action_url IS NOT NULL ORDER BY o.created_at LIMIT 1) AS link
FROM reminder_steps s
JOIN invitations i ON i.id = s.invitation_id
JOIN users u ON u.id = i.created_by
LEFT JOIN workspace_businesses w ON w.application_id = i.application_id
LEFT JOIN application_left l ON l.application_id = i.application_id`;
const ONE_STEP = `${STATE_SQL} WHERE s.invitation_id = $1 AND s.step = $2`;

/** The timestamp columns of a step read, revived from its JSON. */
const STEP_DATES = [
  'step_due_at',
  'expires_at',
  'revoked_at',
  'first_used_at',
  'due_at',
  'reminders_paused_at',
  'unsubscribed_at',
  'inviter_disabled_at',
  'submitted_at',
] as const satisfies readonly (keyof StepState)[];

/**
 * The steps of a batch of jobs, in one read (two arrays: the batch's invitations, its step names), by the primary
 * key's index; read as one JSON document (jsonRows). It may also find a step of one of those invitations that no
 * job of the batch woke (another invitation's step name): the caller keeps only the batch's. A join on the
 * (invitation, step) pairs hashed the whole table for every batch; a semi-join on them let the planner scan every
 * invitation's outbox rows.
 */
const STEPS_OF = `${STATE_SQL} WHERE s.invitation_id = ANY($1::text[]) AND s.step = ANY($2::text[])`;

/** Why no reminder may go to this invitation any more, or null. What the app knows decides: no Portal call per reminder. */
export function stoppedBecause(s: Pick<StepState, 'revoked_at' | 'expires_at' | 'unsubscribed_at' | 'submitted_at' | 'client_email'>, now: Date): string | null {
  if (s.revoked_at) return 'The invitation was revoked.';
  if (s.expires_at.getTime() <= now.getTime()) return 'The invitation expired.';
  if (s.unsubscribed_at) return 'The client asked for no more reminders.';
  if (s.submitted_at) return 'The application was submitted.';
  if (!s.client_email) return 'The invitation has no address to remind.';
  return null;
}

// due_at is the end of the due day (the next local midnight): the day itself is the instant before.
const dueText = (dueAt: Date, timeZone: string) => longDate(new Date(dueAt.getTime() - 1), timeZone);

export type StepOutcome = 'sent' | 'done-already' | 'not-yet' | 'paused' | 'quiet' | 'stopped';

export interface StepContext {
  origin: string;
  defaultTimeZone: string;
  quiet: Env['reminderQuietHours'];
  now: Date;
}

const NEVER_MAILED = 'The invitation was never mailed, so there is no link to remind of.';

/** What becomes of a step whose job woke it, before anything is written. */
type Decision = { outcome: 'done-already' | 'not-yet' | 'paused' } | { outcome: 'stopped'; reason: string } | { outcome: 'quiet'; at: Date } | { outcome: 'sent' };

/** When the quiet hours a zone is in at `ctx.now` end, or null outside them: once per zone for a whole batch. */
function quietUntil(ctx: StepContext): (zone: string) => Date | null {
  const byZone = new Map<string, Date | null>();
  return (zone) => {
    let until = byZone.get(zone);
    if (until === undefined) byZone.set(zone, (until = isQuiet(ctx.now, zone, ctx.quiet) ? outsideQuietHours(ctx.now, zone, ctx.quiet) : null));
    return until;
  };
}

function decide(s: StepState, ctx: StepContext, quietIn: (zone: string) => Date | null): Decision {
  if (s.status !== 'scheduled') return { outcome: 'done-already' };
  // A step moved later (quiet hours) has a later job of its own.
  if (s.step_due_at.getTime() > ctx.now.getTime() + 1000) return { outcome: 'not-yet' };
  const stop = stoppedBecause(s, ctx.now) ?? (s.link ? null : NEVER_MAILED);
  if (stop) return { outcome: 'stopped', reason: stop };
  if (s.reminders_paused_at) return { outcome: 'paused' };
  const until = quietIn(s.time_zone ?? ctx.defaultTimeZone);
  return until ? { outcome: 'quiet', at: until } : { outcome: 'sent' };
}

/**
 * Runs the steps their jobs woke (a tick's batch): one read of their state, one UPDATE for those that stopped,
 * and one transaction that claims those due and queues all their mail at once. A step is sent once: the UPDATE
 * from `scheduled` to `sent` is the claim, made in the transaction that queues its mail. A paused invitation's
 * step waits (resume wakes it); one due in the recipient's night moves to the morning; one whose invitation is
 * done is skipped with the reason. A step per query and per transaction made 10,000 due reminders take minutes;
 * the batch makes them one read and a few bulk writes. Outcomes in the order of `jobs`.
 */
export async function runReminderSteps(db: Db, boss: PgBoss, jobs: readonly WokenStep[], ctx: StepContext): Promise<StepOutcome[]> {
  if (jobs.length === 0) return [];
  const jobIds = new Map(jobs.map((j) => [stepKey(j.invitationId, j.step), j.jobId]));
  const found = await jsonRows<StepState>(db, STEPS_OF, [[...new Set(jobs.map((j) => j.invitationId))], [...new Set(jobs.map((j) => j.step))]], STEP_DATES);
  const states = found.filter((s) => jobIds.has(stepKey(s.id, s.step)));
  const outcomes = new Map<string, StepOutcome>();
  const stopped: { s: StepState; reason: string }[] = [];
  const due: StepState[] = [];
  const quietIn = quietUntil(ctx);
  for (const s of states) {
    const d = decide(s, ctx, quietIn);
    outcomes.set(stepKey(s.id, s.step), d.outcome);
    if (d.outcome === 'stopped') stopped.push({ s, reason: d.reason });
    else if (d.outcome === 'sent') due.push(s);
    else if (d.outcome === 'quiet') {
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE reminder_steps SET due_at = $3, updated_at = $4 WHERE invitation_id = $1 AND step = $2 AND status = 'scheduled'`, [s.id, s.step, d.at, ctx.now]);
        await wake(tx, boss, s.id, s.step, d.at);
      });
    }
  }
  if (stopped.length > 0) {
    await db.query(
      `UPDATE reminder_steps r SET status = 'skipped', outcome = x.reason, updated_at = $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS x(invitation_id, step, reason)
        WHERE r.invitation_id = x.invitation_id AND r.step = x.step AND r.status = 'scheduled'`,
      [stopped.map((x) => x.s.id), stopped.map((x) => x.s.step), stopped.map((x) => x.reason), ctx.now],
    );
  }
  const sent = await sendSteps(db, boss, due, ctx, jobIds);
  for (const s of due) if (!sent.has(stepKey(s.id, s.step))) outcomes.set(stepKey(s.id, s.step), 'done-already');
  // A job whose step no longer exists has nothing left to do.
  return jobs.map((j) => outcomes.get(stepKey(j.invitationId, j.step)) ?? 'done-already');
}

/** The client's reminder of a step (and, when overdue, the inviter's notice): what queueMessages takes. */
function stepMessages(s: StepState, ctx: StepContext): NewMessage[] {
  const zone = s.time_zone ?? ctx.defaultTimeZone;
  const overdue = s.kind === 'overdue' || (s.due_at !== null && s.due_at.getTime() <= ctx.now.getTime());
  const due = s.due_at ? dueText(s.due_at, zone) : null;
  const unsubscribe = unsubscribeUrl(ctx.origin, s.id);
  const client: NewMessage = {
    template: s.kind === 'overdue' ? 'reminder-overdue' : 'reminder',
    recipient: s.client_email!,
    recipientName: s.client_name,
    mail: {
      template: 'reminder',
      input: {
        clientName: s.client_name,
        inviterName: s.inviter_name,
        businessName: s.business_name,
        progressPercent: s.progress_percent,
        sectionsLeft: s.sections_left ?? [],
        documentsLeft: s.documents_left ?? [],
        opened: s.first_used_at !== null,
        dueText: due,
        overdue,
        link: s.link!,
        unsubscribeUrl: unsubscribe,
      },
    },
    applicationId: s.application_id,
    invitationId: s.id,
    createdBy: s.kind === 'manual' ? s.created_by : null,
    listUnsubscribe: unsubscribe,
  };
  if (s.kind !== 'overdue' || !due || s.inviter_disabled_at) return [client];
  const staff: NewMessage = {
    template: 'overdue-staff',
    recipient: s.inviter_email,
    recipientName: s.inviter_name,
    mail: {
      template: 'overdue-staff',
      input: {
        inviterName: s.inviter_name,
        clientText: s.client_name ?? s.client_email!,
        businessName: s.business_name,
        progressPercent: s.progress_percent,
        dueText: due,
        pageUrl: s.business_id ? `${ctx.origin}/businesses/${s.business_id}` : `${ctx.origin}/`,
      },
    },
    applicationId: s.application_id,
    invitationId: s.id,
    createdBy: null,
  };
  return [client, staff];
}

/**
 * Claims the steps and queues their mail, all or nothing: the client's reminder of each step claimed (another
 * worker's claim wins; its step is left out), keyed by step. The jobs that woke the claimed steps (`jobIds`, by
 * step) are deleted in the same transaction: the step's row now says what became of it (sent, and which
 * message), so the job has nothing left to keep, and deleting costs the queue a fraction of marking each one
 * completed afterwards.
 */
async function sendSteps(
  db: Db,
  boss: PgBoss,
  steps: readonly StepState[],
  ctx: StepContext,
  jobIds: ReadonlyMap<string, string | undefined> = new Map(),
): Promise<Map<string, StoredOutboxRow>> {
  if (steps.length === 0) return new Map();
  // Each step's reminder gets its id first, so the claim records it: one UPDATE claims and links the batch.
  const planned = steps.map((s) => ({ s, messages: stepMessages(s, ctx).map((m) => ({ ...m, id: newId('msg') })) }));
  return db.transaction(async (tx) => {
    const claimed = await tx.query<{ invitation_id: string; step: string }>(
      `UPDATE reminder_steps r SET status = 'sent', message_id = x.message_id, updated_at = $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS x(invitation_id, step, message_id)
        WHERE r.invitation_id = x.invitation_id AND r.step = x.step AND r.status = 'scheduled' AND r.invitation_id = ANY($1::text[])
       RETURNING r.invitation_id, r.step`,
      [planned.map((p) => p.s.id), planned.map((p) => p.s.step), planned.map((p) => p.messages[0]!.id), ctx.now],
    );
    const mine = new Set(claimed.map((c) => stepKey(c.invitation_id, c.step)));
    const batch = planned.filter((p) => mine.has(stepKey(p.s.id, p.s.step)));
    const rows = await queueMessages(tx, boss, batch.flatMap((b) => b.messages), ctx.now);
    const done = batch.flatMap((b) => jobIds.get(stepKey(b.s.id, b.s.step)) ?? []);
    if (done.length > 0) await boss.deleteJob(REMINDER_QUEUE, done, { db: bossDb(tx) });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return new Map(batch.map((b) => [stepKey(b.s.id, b.s.step), byId.get(b.messages[0]!.id)!]));
  });
}

/**
 * Staff's "send a reminder now": a step of its own, sent at once whatever the schedule, pause or hour (staff
 * asked), but never to an invitation that is done. Null with the reason when it may not go.
 */
export async function sendReminderNow(db: Db, boss: PgBoss, invitationId: string, ctx: StepContext): Promise<{ message: OutboxRow } | { refused: string }> {
  const step = `now-${ctx.now.getTime()}`;
  await db.query(`INSERT INTO reminder_steps (invitation_id, step, kind, due_at, updated_at) VALUES ($1, $2, 'manual', $3, $3) ON CONFLICT DO NOTHING`, [invitationId, step, ctx.now]);
  const s = await db.one<StepState>(ONE_STEP, [invitationId, step]);
  if (!s) return { refused: 'No such invitation.' };
  const stop = stoppedBecause(s, ctx.now);
  const queued = stop || !s.link ? null : ((await sendSteps(db, boss, [s], ctx)).get(stepKey(s.id, s.step)) ?? null);
  const message = queued && rendered(queued);
  if (!message) {
    await db.query(`DELETE FROM reminder_steps WHERE invitation_id = $1 AND step = $2 AND status <> 'sent'`, [invitationId, step]);
    return { refused: stop ?? 'The invitation was never mailed (its link was copied by hand), so there is no link to remind of.' };
  }
  await db.query(`UPDATE invitations SET reminded_now_at = $2 WHERE id = $1`, [invitationId, ctx.now]);
  return { message };
}

/** Pauses or resumes; a resume wakes the steps that came due meanwhile (their jobs found them paused). */
export async function setPaused(db: Db, boss: PgBoss, invitationId: string, paused: boolean, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`UPDATE invitations SET reminders_paused_at = ${paused ? 'COALESCE(reminders_paused_at, $2)' : 'NULL'} WHERE id = $1`, paused ? [invitationId, now] : [invitationId]);
    if (paused) return;
    const due = await tx.query<{ step: string }>(`SELECT step FROM reminder_steps WHERE invitation_id = $1 AND status = 'scheduled' AND due_at <= $2`, [invitationId, now]);
    for (const d of due) await wake(tx, boss, invitationId, d.step, now);
  });
}

/**
 * The client's browser reported its time zone: their reminders keep out of their night there from now on. Only
 * where staff named none (the settings' zone was a stand-in), and only the first report: a later visit from a
 * phone abroad does not move the schedule each time.
 */
export async function learnTimeZone(db: Db, invitationId: string, timeZone: string): Promise<void> {
  if (!isTimeZone(timeZone)) return;
  await db.query(`UPDATE invitations SET time_zone = $2 WHERE id = $1 AND time_zone IS NULL`, [invitationId, timeZone]);
}

/** Unsubscribes (one-click link): true the first time, false when it already was (a replay changes nothing). */
export async function unsubscribe(db: Db, invitationId: string, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await tx.one(`UPDATE invitations SET unsubscribed_at = $2 WHERE id = $1 AND unsubscribed_at IS NULL RETURNING id`, [invitationId, now]);
    if (!row) return false;
    await stopReminders(tx, { invitationId }, 'The client asked for no more reminders.', now);
    return true;
  });
}

/**
 * How many woken steps one fetch takes: a tick's batch. On the embedded database a batch's transaction holds its
 * one connection (about 0.1 s at 1,000), so every request waits that long at most; 2,000 saved little more.
 */
export const REMINDER_BATCH = 1000;

/**
 * Works the reminder queue on this instance, a batch of due steps at a time. The queue waits its polling
 * interval after every fetch, whatever it found; after a full batch the worker asks for the next at once, so
 * a tick with thousands of due steps is drained in batches back to back instead of one batch a second.
 */
export async function workReminders(boss: PgBoss, db: Db, ctx: () => Omit<StepContext, 'now'>, pollingIntervalSeconds = 1): Promise<string> {
  let id = '';
  // Steps carry no priority: fetching in creation order alone made each batch's fetch about a quarter cheaper.
  id = await boss.work<StepJob>(REMINDER_QUEUE, { batchSize: REMINDER_BATCH, pollingIntervalSeconds, priority: false }, async (jobs) => {
    await runReminderSteps(
      db,
      boss,
      jobs.map((j) => ({ ...j.data, jobId: j.id })),
      { ...ctx(), now: new Date() },
    );
    if (jobs.length === REMINDER_BATCH && id) boss.notifyWorker(id);
  });
  return id;
}
