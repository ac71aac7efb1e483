import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationView } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { InvitationCreated } from '@/lib/bff/invitations';
import { MessageQueued, OutboxPage } from '@/lib/bff/messages';
import { InvitationRemindersView } from '@/lib/bff/reminders';
import type { RunningSandbox } from '@/server/sandbox/server';
import { poller } from '@/tests/support/poller';
import { addressText, startSmtpSink, type SmtpSink } from '@/tests/support/smtp-sink';
import type { ParsedMail } from 'mailparser';
import { anotherInstance } from './support/another-instance';
import { fillFromExamples, freshApplication } from './support/applications';
import { BffClient, bffDb, bffStack, newUser, stackApplication } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';

const until = poller({ timeoutMs: 60_000, everyMs: 200 });

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

// Time runs 86,400 times faster (a day of the schedule is a second), at any hour; "send now" once an hour.
const mailer = anotherInstance({
  name: 'reminders',
  with: () => ({ SMTP_URL: sink.url, MAIL_RETRY_SECONDS: '1', REMINDER_TIME_SCALE: '86400', REMINDER_QUIET_HOURS: 'off', REMINDER_NOW_MINUTES: '60', MAIL_DAILY_CAP: '4' }),
});

/**
 * A zone where it is midday now: the shared instance works reminder steps too, with the default quiet hours,
 * so the tests' invitations live where it is day whatever the hour of the run.
 */
function middayZone(): string {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

async function staff() {
  const u = await newUser('staff');
  const client = new BffClient(mailer().url);
  await client.signIn(u.email, u.password);
  return { client, name: u.user.name, email: u.email };
}

const unique = (what: string) => `${what}-${randomBytes(5).toString('hex')}@example.test`;
const mailsTo = (address: string) => sink.received.filter((m) => addressText(m.to).includes(address));
const waitForMail = async (address: string, count = 1) => (await until(async () => mailsTo(address), (m) => m.length >= count, `${count} mail(s) to ${address}`)).slice(0, count);
/** The mail of `subject` among the first `count` to `address` (deliveries may arrive in any order). */
const mailOf = async (address: string, count: number, subject: string | RegExp) => {
  const mails = await waitForMail(address, count);
  const found = mails.find((m) => (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject ?? '')));
  expect(found, `a mail "${String(subject)}" among ${mails.map((m) => m.subject).join(', ')}`).toBeDefined();
  return found!;
};
const header = (mail: ParsedMail, name: string) => mail.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n[ \t]+/g, ' ').replace(/^[^:]+:\s*/, '') ?? null;
const remindersOf = async (client: BffClient, invitationId: string) => {
  const r = await client.get(`/api/invitations/${invitationId}/reminders`);
  expect(r.status, r.text).toBe(200);
  return InvitationRemindersView.parse(r.body);
};
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function invite(client: BffClient, app: string, body: Record<string, unknown>) {
  const r = await client.post(`/api/applications/${app}/invitations`, { body: { time_zone: middayZone(), ...body } });
  expect(r.status, r.text).toBe(201);
  return InvitationCreated.parse(r.body);
}

const postUnsubscribe = (url: string, body = 'List-Unsubscribe=One-Click') =>
  fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });

describe('reminders', () => {
  it('sends scheduled reminders that say how far the client is, with one-click unsubscribe that works once and only when signed', async () => {
    const app = await stackApplication('Reminded Ltd');
    const { client } = await staff();
    const address = unique('remind');
    const created = await invite(client, app, { client_email: address, client_name: 'Riley', reminder_days: [1, 30] });

    const invitation = await mailOf(address, 2, 'Your application for Reminded Ltd: information needed');
    const reminder = await mailOf(address, 2, 'Reminder: your application for Reminded Ltd');
    expect(reminder!.text).toContain('Hello Riley,');
    expect(reminder!.text).toContain('You have not opened your application yet');
    expect(reminder!.text).toContain(`Continue your application: ${created.link}`);
    expect(reminder!.html).toContain('<html lang="en">');
    expect(header(invitation!, 'list-unsubscribe')).toBeNull();
    expect(header(reminder!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = /^<(https?:\/\/[^>]+)>$/.exec(header(reminder!, 'list-unsubscribe') ?? '')?.[1];
    expect(unsubscribeUrl).toMatch(/\/api\/unsubscribe\/inv_[0-9a-f]{24}\.[A-Za-z0-9_-]+$/);
    expect(reminder!.text).toContain(unsubscribeUrl);

    const before = await until(() => remindersOf(client, created.invitation.id), (v) => v.steps[0]?.status === 'sent', 'the first step to be sent');
    expect(before.steps.map((s) => [s.step, s.status])).toEqual([
      ['r1', 'sent'],
      ['r2', 'scheduled'],
    ]);
    expect(before.next).toMatchObject({ step: 'r2', kind: 'reminder' });
    expect(before.messages.map((m) => m.template).sort()).toEqual(['invitation', 'reminder']);
    // A reminder is queued as its template's input; once sent, its row keeps the words that went, and the Outbox shows them.
    const sentReminder = await until(
      async () => OutboxPage.parse((await client.get('/api/outbox')).body).items.find((m) => m.recipient === address && m.template === 'reminder'),
      (m) => m?.status === 'sent',
      'the reminder to show as sent in the Outbox',
    );
    expect(sentReminder).toMatchObject({ subject: reminder!.subject, text_body: reminder!.text });
    const kept = await (await bffDb()).one<{ subject: string | null; text_body: string | null; html_body: string | null }>(
      'SELECT subject, text_body, html_body FROM outbox WHERE id = $1',
      [sentReminder!.id],
    );
    expect(kept).toEqual({ subject: reminder!.subject, text_body: reminder!.text, html_body: sentReminder!.html_body });

    // A forged signature, another invitation's id under this signature, or no one-click body change nothing.
    const url = new URL(unsubscribeUrl!);
    const [id, signature] = url.pathname.split('/').at(-1)!.split('.') as [string, string];
    const forged = await postUnsubscribe(`${url.origin}/api/unsubscribe/${id}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    expect(forged.status).toBe(404);
    const moved = await postUnsubscribe(`${url.origin}/api/unsubscribe/inv_${randomBytes(12).toString('hex')}.${signature}`);
    expect(moved.status).toBe(404);
    expect((await postUnsubscribe(unsubscribeUrl!, 'hello=1')).status).toBe(400);
    expect((await remindersOf(client, created.invitation.id)).unsubscribed).toBe(false);

    // A GET (a person, or a link scanner) only leads to the page that asks.
    const get = await fetch(unsubscribeUrl!, { redirect: 'manual' });
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toBe(`${url.origin}/unsubscribe/${id}.${signature}`);
    expect((await remindersOf(client, created.invitation.id)).unsubscribed).toBe(false);

    const ok = await postUnsubscribe(unsubscribeUrl!);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ unsubscribed: true });
    const replay = await postUnsubscribe(unsubscribeUrl!);
    expect(replay.status).toBe(409);
    expect(BffErrorBody.parse(await replay.json()).error.code).toBe('conflict');

    const after = await remindersOf(client, created.invitation.id);
    expect(after).toMatchObject({ unsubscribed: true, next: null });
    expect(after.steps.find((s) => s.step === 'r2')).toMatchObject({ status: 'skipped', outcome: 'The client asked for no more reminders.' });
    const page = await fetch(`${url.origin}/unsubscribe/${id}.${signature}`, { headers: { Accept: 'text/html' } });
    expect(await page.text()).toContain('You will get no more reminders');
  });

  it('reminds when overdue and tells the inviting staff member', async () => {
    const app = await stackApplication('Overdue Ltd');
    const { client, email: inviterEmail, name: inviter } = await staff();
    const address = unique('late');
    const created = await invite(client, app, { client_email: address, reminder_days: [], due_date: tomorrow() });
    const overdue = await mailOf(address, 2, 'Overdue: your application for Overdue Ltd');
    expect(overdue!.text).toContain('It was due on');
    const [told] = await waitForMail(inviterEmail);
    expect(told!.subject).toMatch(/^Overdue: the application for Overdue Ltd/);
    expect(told!.text).toContain(`Hello ${inviter},`);
    const view = await remindersOf(client, created.invitation.id);
    expect(view.steps).toEqual([expect.objectContaining({ step: 'overdue', kind: 'overdue', status: 'sent' })]);
    expect(view.due_at).not.toBeNull();
  });

  it('stops the schedule when the application is submitted and when the invitation is revoked', async () => {
    const portal = new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
    const submittedApp = await freshApplication(portal, 'Submitting Ltd');
    await fillFromExamples(portal, submittedApp);
    const { client } = await staff();
    const first = unique('submits');
    // The steps fall 10 and 12 seconds on: long enough to submit and revoke first on a busy machine.
    const a = await invite(client, submittedApp, { client_email: first, reminder_days: [10, 12] });
    expect((await remindersOf(client, a.invitation.id)).steps.map((s) => s.status)).toEqual(['scheduled', 'scheduled']);
    const read = ApplicationView.parse((await client.get<{ application: unknown }>(`/api/applications/${submittedApp}`)).body.application);
    const submitted = await client.post(`/api/applications/${submittedApp}/submit`, { ifMatch: read.etag, idempotencyKey: randomUUID() });
    expect(submitted.status, submitted.text).toBe(200);
    const stopped = await remindersOf(client, a.invitation.id);
    expect(stopped.next).toBeNull();
    expect(stopped.steps.map((s) => [s.status, s.outcome])).toEqual([
      ['skipped', 'The application was submitted.'],
      ['skipped', 'The application was submitted.'],
    ]);

    const revokedApp = await stackApplication('Revoked Reminders Ltd');
    const second = unique('revoked');
    const b = await invite(client, revokedApp, { client_email: second, reminder_days: [10] });
    expect((await client.post(`/api/invitations/${b.invitation.id}/revoke`)).status).toBe(200);
    expect((await remindersOf(client, b.invitation.id)).steps.map((s) => [s.status, s.outcome])).toEqual([['skipped', 'The invitation was revoked.']]);

    // The same path delivers: a third invitation's reminder on the same schedule arrives, and by then the
    // stopped ones would have too.
    const control = unique('control');
    await invite(client, await stackApplication('Control Ltd'), { client_email: control, reminder_days: [12] });
    await waitForMail(control, 2);
    await waitForMail(first);
    expect(mailsTo(first).map((m) => m.subject)).toEqual(['Your application for Submitting Ltd: information needed']);
    expect(mailsTo(second).length).toBeLessThanOrEqual(1);
    expect(mailsTo(second).filter((m) => m.subject?.startsWith('Reminder'))).toEqual([]);
  });

  it('says what is left once the client has opened the form: the sections to finish and the documents to upload', async () => {
    const app = await stackApplication('What Is Left Ltd');
    const { client } = await staff();
    const address = unique('left');
    const created = await invite(client, app, { client_email: address, reminder_days: [] });
    // The client follows the mailed link and opens the form; what is left is kept after that reply.
    const [invitationMail] = await waitForMail(address);
    const link = invitationMail!.text!.match(/Open your application: (\S+)/)![1]!;
    const browser = new BffClient(mailer().url);
    expect((await browser.get(new URL(link).pathname, { headers: { Accept: 'text/html' } })).status).toBe(303);
    expect((await browser.get(`/api/applications/${app}/form`)).status).toBe(200);
    const db = await bffDb();
    await until(
      () => db.query<{ sections: string[] }>('SELECT sections FROM application_left WHERE application_id = $1', [app]),
      (rows) => (rows[0]?.sections.length ?? 0) > 0,
      'what is left of the application to be kept',
    );

    expect((await client.post(`/api/invitations/${created.invitation.id}/reminders/now`)).status).toBe(201);
    const reminder = await mailOf(address, 2, 'Reminder: your application for What Is Left Ltd');
    expect(reminder.text).toMatch(/^Still to finish: [^\n]+\.$/m);
    expect(reminder.text).toMatch(/^Documents still to upload: Business bank statements, Latest annual accounts[^\n]*\.$/m);
    expect(reminder.html).toContain('Still to finish: ');
  });

  it('sends a reminder now at most once an hour (429 with Retry-After), and pauses and resumes', async () => {
    const app = await stackApplication('Send Now Ltd');
    const { client } = await staff();
    const address = unique('now');
    const created = await invite(client, app, { client_email: address, reminder_days: [] });
    const now = await client.post(`/api/invitations/${created.invitation.id}/reminders/now`);
    expect(now.status, now.text).toBe(201);
    expect(MessageQueued.parse(now.body).message).toMatchObject({ template: 'reminder', recipient: address });
    await mailOf(address, 2, 'Reminder: your application for Send Now Ltd');

    const again = await client.post(`/api/invitations/${created.invitation.id}/reminders/now`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(BffErrorBody.parse(again.body).error.code).toBe('too_soon');
    expect((await remindersOf(client, created.invitation.id)).send_now_after).not.toBeNull();

    const paused = await client.put(`/api/invitations/${created.invitation.id}/reminders`, { body: { paused: true } });
    expect(InvitationRemindersView.parse(paused.body).paused).toBe(true);
    const resumed = await client.put(`/api/invitations/${created.invitation.id}/reminders`, { body: { paused: false } });
    expect(InvitationRemindersView.parse(resumed.body).paused).toBe(false);

    // A link-only invitation has no mail to remind of.
    const linkOnly = await invite(client, app, { client_email: unique('copied'), delivery: 'link_only' });
    const refused = await client.post(`/api/invitations/${linkOnly.invitation.id}/reminders/now`);
    expect(refused.status).toBe(409);
  });

  it('holds messages beyond the per-recipient daily cap for the next day, and says so in the Outbox', async () => {
    const { client } = await staff();
    const address = unique('capped');
    const app = await stackApplication('Capped Ltd');
    for (let i = 0; i < 5; i++) await invite(client, app, { client_email: address, reminder_days: [] });
    await waitForMail(address, 4);
    const outbox = OutboxPage.parse((await client.get('/api/outbox')).body).items.filter((m) => m.recipient === address);
    expect(outbox).toHaveLength(5);
    const held = outbox.filter((m) => m.held_reason !== null);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ status: 'queued' });
    expect(held[0]!.held_reason).toMatch(/^More than 4 messages to this address today \(the daily cap\)/);
    expect(held[0]!.next_attempt_at!.slice(0, 10)).toBe(tomorrow());
    await until(
      async () => OutboxPage.parse((await client.get('/api/outbox')).body).items.filter((m) => m.recipient === address && m.status === 'sent'),
      (m) => m.length === 4,
      'four messages sent',
    );
    expect(mailsTo(address)).toHaveLength(4);
  });

  it('refuses a due date in the past and a time zone that does not exist, naming the field', async () => {
    const app = await stackApplication('Bad Plan Ltd');
    const { client } = await staff();
    for (const [field, body] of [
      ['due_date', { due_date: '2001-01-01' }],
      ['due_date', { due_date: 'next week' }],
      ['time_zone', { time_zone: 'Mars/Olympus' }],
      ['reminder_days', { reminder_days: [5, 2] }],
    ] as const) {
      const r = await client.post(`/api/applications/${app}/invitations`, { body: { client_email: unique('plan'), ...body } });
      expect(r.status, `${field}: ${r.text}`).toBe(422);
      expect(BffErrorBody.parse(r.body).error.details.map((d) => d.parameter)).toContain(field);
    }
  });
});
