import 'server-only';
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { api } from '@/lib/api/endpoints';
import { RemindersPauseBody, type InvitationRemindersView, type ReminderStepView } from '@/lib/bff/reminders';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { AppError } from '@/server/http/app-error';
import { InvitationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { jobQueue } from '@/server/messages/job-queue';
import { messageView, OUTBOX_COLUMNS, rendered, type StoredOutboxRow } from '@/server/messages/outbox';
import { sendReminderNow, setPaused, unsubscribe } from './reminders';
import { verifyUnsubscribeToken } from './unsubscribe-link';

interface PlanRow {
  id: string;
  application_id: string;
  client_email: string | null;
  due_at: Date | null;
  time_zone: string | null;
  reminders_paused_at: Date | null;
  unsubscribed_at: Date | null;
  reminded_now_at: Date | null;
}

interface StepRow {
  step: string;
  kind: ReminderStepView['kind'];
  due_at: Date;
  status: ReminderStepView['status'];
  outcome: string | null;
  message_id: string | null;
}

const planOf = (db: Db, id: string) =>
  db.one<PlanRow>(`SELECT id, application_id, client_email, due_at, time_zone, reminders_paused_at, unsubscribed_at, reminded_now_at FROM invitations WHERE id = $1`, [id]);

/** When "send a reminder now" may be used again, or null when it may now. */
function sendNowAfter(plan: PlanRow, now: Date): Date | null {
  if (!plan.reminded_now_at) return null;
  const after = new Date(plan.reminded_now_at.getTime() + getEnv().reminderNowMinutes * 60_000);
  return after.getTime() > now.getTime() ? after : null;
}

async function remindersView(db: Db, plan: PlanRow, now: Date = new Date()): Promise<InvitationRemindersView> {
  const steps = await db.query<StepRow>(`SELECT step, kind, due_at, status, outcome, message_id FROM reminder_steps WHERE invitation_id = $1 ORDER BY due_at, step`, [plan.id]);
  const messages = await db.query<StoredOutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE invitation_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`, [plan.id]);
  const views = steps.map((s): ReminderStepView => ({ step: s.step, kind: s.kind, due_at: s.due_at.toISOString(), status: s.status, outcome: s.outcome, message_id: s.message_id }));
  return {
    invitation_id: plan.id,
    client_email: plan.client_email,
    due_at: plan.due_at?.toISOString() ?? null,
    time_zone: plan.time_zone,
    paused: plan.reminders_paused_at !== null,
    unsubscribed: plan.unsubscribed_at !== null,
    next: views.find((s) => s.status === 'scheduled') ?? null,
    steps: views,
    messages: messages.map((m) => {
      const v = messageView(rendered(m));
      return { id: v.id, template: v.template, subject: v.subject, status: v.status, created_at: v.created_at, sent_at: v.sent_at, held_reason: v.held_reason, last_error: v.last_error };
    }),
    send_now_after: sendNowAfter(plan, now)?.toISOString() ?? null,
  };
}

async function requirePlan(db: Db, id: string): Promise<PlanRow> {
  const plan = await planOf(db, id);
  if (!plan) throw new AppError('not_found', 'No such invitation.');
  return plan;
}

const stepContext = (origin: string) => {
  const env = getEnv();
  return { origin, defaultTimeZone: env.reminderTimeZone, quiet: env.reminderQuietHours, now: new Date() };
};

// GET /api/invitations/[invitationId]/reminders – the invitation's reminder plan, its steps, its messages and the next one
const reminders_GET = route(api.invitationReminders.GET, { roles: ['staff'], params: InvitationParams }, async ({ params, db }) => {
  return { body: await remindersView(db, await requirePlan(db, params.invitationId)) };
});

// PUT /api/invitations/[invitationId]/reminders – pauses ({ paused: true }) or resumes the invitation's reminders
const reminders_PUT = route(
  api.invitationReminders.PUT,
  {
    roles: ['staff'],
    params: InvitationParams,
    body: RemindersPauseBody,
    audit: { operation: 'invitation.reminders', object: ({ params }) => ({ type: 'invitation', id: params.invitationId, applicationId: null }) },
  },
  async ({ params, body, db, auditObject }) => {
    const plan = await requirePlan(db, params.invitationId);
    auditObject({ applicationId: plan.application_id });
    await setPaused(db, await jobQueue(), plan.id, body.paused);
    return { body: await remindersView(db, await requirePlan(db, plan.id)) };
  },
);

// POST /api/invitations/[invitationId]/reminders/now – sends a reminder at once (at most once per REMINDER_NOW_MINUTES)
const reminderNow_POST = route(
  api.invitationReminderNow.POST,
  {
    roles: ['staff'],
    params: InvitationParams,
    audit: { operation: 'invitation.remind', object: ({ params }) => ({ type: 'invitation', id: params.invitationId, applicationId: null }) },
  },
  async ({ params, db, origin, auditObject }) => {
    const plan = await requirePlan(db, params.invitationId);
    auditObject({ applicationId: plan.application_id });
    const ctx = stepContext(origin);
    const after = sendNowAfter(plan, ctx.now);
    if (after) {
      const seconds = Math.max(1, Math.ceil((after.getTime() - ctx.now.getTime()) / 1000));
      throw new AppError('too_soon', `A reminder was sent moments ago: the next can go in ${Math.ceil(seconds / 60)} minute(s).`, [], { 'Retry-After': String(seconds) });
    }
    const sent = await sendReminderNow(db, await jobQueue(), plan.id, ctx);
    if ('refused' in sent) throw new AppError('conflict', `No reminder was sent: ${sent.refused}`);
    return { status: 201, body: { message: messageView(sent.message) } };
  },
);

const TokenParams = z.object({ token: z.string().min(1).max(200) });
/** 303 to the page that shows the link's state; kept by no cache, as its address holds the token. */
function seeUnsubscribePage(origin: string, token: string) {
  const r = NextResponse.redirect(`${origin}/unsubscribe/${encodeURIComponent(token)}`, 303);
  r.headers.set('Cache-Control', 'private, no-store');
  return r;
}

const linkRefused = () => new AppError('not_found', 'This unsubscribe link is not valid: nothing was changed.');

// GET /api/unsubscribe/[token] – a person following the header's address: the page that asks first
const unsubscribe_GET = route(api.unsubscribe.GET, { roles: 'public', params: TokenParams }, async ({ params, origin }) => {
  return seeUnsubscribePage(origin, params.token);
});

// POST /api/unsubscribe/[token] – one-click unsubscribe (RFC 8058). A mail provider posts it without a cookie or
// an Origin of ours, so there is no CSRF check: the signed token, per invitation, is the proof.
const unsubscribe_POST = route(api.unsubscribe.POST, { roles: 'public', csrf: false, params: TokenParams }, async ({ params, req, db, origin }) => {
  const invitationId = verifyUnsubscribeToken(params.token);
  if (!invitationId) throw linkRefused();
  const body = await req.text().catch(() => '');
  if (!new URLSearchParams(body).getAll('List-Unsubscribe').includes('One-Click')) {
    throw new AppError('invalid_request', 'The body must be List-Unsubscribe=One-Click.', [{ code: 'invalid', message: 'Expected List-Unsubscribe=One-Click', parameter: 'List-Unsubscribe' }]);
  }
  if (!(await planOf(db, invitationId))) throw linkRefused();
  const changed = await unsubscribe(db, invitationId);
  // The page's own form (a browser) goes back to the page, which now says it is done.
  if ((req.headers.get('accept') ?? '').includes('text/html')) return seeUnsubscribePage(origin, params.token);
  if (!changed) throw new AppError('conflict', 'These reminders were already stopped: nothing was changed.');
  return { body: { unsubscribed: true as const } };
});

/** The route handlers of reminders: each route file under app/api re-exports its methods. */
export const reminderRoutes = {
  reminders: { GET: reminders_GET, PUT: reminders_PUT },
  reminderNow: { POST: reminderNow_POST },
  unsubscribe: { GET: unsubscribe_GET, POST: unsubscribe_POST },
};
