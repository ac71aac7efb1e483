import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { InvitationCreated } from '@/lib/bff/invitations';
import { MessageQueued, OutboxPage } from '@/lib/bff/messages';
import { poller } from '@/tests/support/poller';
import { addressText, startSmtpSink, type SmtpSink } from '@/tests/support/smtp-sink';
import { anotherInstance } from './support/another-instance';
import { BffClient, bffDb, newUser, stackApplication } from './support/bff';

const until = poller({ timeoutMs: 60_000, everyMs: 200 });

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});
afterEach(() => sink.setMode({ kind: 'accept' }));

// An app instance that delivers mail to the sink (the shared stack has no SMTP_URL: its mail stays queued, and
// this instance's worker delivers that too, so each test looks only for its own recipients).
const mailer = anotherInstance({ name: 'mail', with: () => ({ SMTP_URL: sink.url, MAIL_RETRY_SECONDS: '1' }) });

async function staff() {
  const u = await newUser('staff');
  const client = new BffClient(mailer().url);
  await client.signIn(u.email, u.password);
  return { client, name: u.user.name };
}

const unique = (what: string) => `${what}-${randomBytes(5).toString('hex')}@example.test`;
const mailsTo = (address: string) => sink.received.filter((m) => addressText(m.to).includes(address));
const waitForMail = async (address: string, count = 1) => (await until(async () => mailsTo(address), (m) => m.length >= count, `${count} mail(s) to ${address}`)).slice(0, count);
const outboxOf = async (client: BffClient, address: string) => OutboxPage.parse((await client.get('/api/outbox')).body).items.filter((m) => m.recipient === address);

describe('invitation mail', () => {
  it('mails the link to the client, whose link opens the application; resend mails it again; revoke kills it', async () => {
    const app = await stackApplication('Mailed Invitation Ltd');
    const { client: staffClient, name: inviter } = await staff();
    const address = unique('casey');
    // A Host header naming another site changes no link.
    const r = await staffClient.post(`/api/applications/${app}/invitations`, { body: { client_email: address, client_name: 'Casey Client' }, headers: { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' } });
    expect(r.status, r.text).toBe(201);
    const created = InvitationCreated.parse(r.body);
    expect(created.message).toMatchObject({ status: 'queued' });

    const [mail] = await waitForMail(address);
    expect(mail!.subject).toBe('Your application for Mailed Invitation Ltd: information needed');
    expect(addressText(mail!.to)).toBe(`"Casey Client" <${address}>`);
    expect(mail!.text).toContain('Hello Casey Client,');
    expect(mail!.text).toContain(inviter);
    expect(mail!.text).toContain(`Open your application: ${created.link}`);
    expect(mail!.html).toContain(`href="${created.link}"`);
    expect(mail!.html).toContain('<html lang="en">');
    expect(mail!.html).not.toMatch(/<img|<script|https?:\/\/(?!127\.0\.0\.1)/);
    const link = mail!.text!.match(/Open your application: (\S+)/)![1]!;
    expect(new URL(link).origin).toBe(mailer().url);

    // Following the mailed link opens the client's session, as a browser from the mail would.
    const browser = new BffClient(mailer().url);
    const opened = await browser.get(new URL(link).pathname, { headers: { Accept: 'text/html' } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/applications/${app}/welcome`);

    const [sent] = await until(() => outboxOf(staffClient, address), (m) => m[0]?.status === 'sent', 'the outbox to say sent');
    expect(sent).toMatchObject({ template: 'invitation', invitation_id: created.invitation.id, application_id: app, attempts: 1, last_error: null });

    const resent = await staffClient.post(`/api/invitations/${created.invitation.id}/resend`);
    expect(resent.status, resent.text).toBe(201);
    expect(MessageQueued.parse(resent.body).message.status).toBe('queued');
    const [, again] = await waitForMail(address, 2);
    expect(again!.text).toContain(`Open your application: ${created.link}`);

    expect((await staffClient.post(`/api/invitations/${created.invitation.id}/revoke`)).status).toBe(200);
    const dead = await new BffClient(mailer().url).get(new URL(link).pathname, { headers: { Accept: 'text/html' } });
    expect(dead.headers.get('location')).toBe('/invite/invalid?reason=revoked');
    const refused = await staffClient.post(`/api/invitations/${created.invitation.id}/resend`);
    expect(refused.status).toBe(409);

    // The application's timeline tells the story: invited, mailed (twice), opened, revoked.
    const timeline = (await staffClient.get(`/applications/${app}/timeline`, { headers: { Accept: 'text/html' } })).text.replace(/<!-- -->/g, '');
    for (const line of [
      `${inviter} invited ${address} to complete the application`,
      `Mail to ${address}: “Your application for Mailed Invitation Ltd: information needed” (sent)`,
      'The client opened the invitation link',
      'The invitation link was revoked',
    ]) {
      expect(timeline).toContain(line);
    }
    expect(BffErrorBody.parse(refused.body).error.code).toBe('conflict');
  });

  it('sends nothing when staff copy the link only', async () => {
    const app = await stackApplication('Link Only Ltd');
    const { client } = await staff();
    const quiet = unique('quiet');
    const r = await client.post(`/api/applications/${app}/invitations`, { body: { client_email: quiet, delivery: 'link_only' } });
    expect(r.status, r.text).toBe(201);
    expect(InvitationCreated.parse(r.body).message).toBeNull();
    const resend = await client.post(`/api/invitations/${InvitationCreated.parse(r.body).invitation.id}/resend`);
    expect(resend.status).toBe(409);
    // The same path mails an invitation created after it: by then the link-only one would have arrived too.
    const loud = unique('loud');
    expect((await client.post(`/api/applications/${app}/invitations`, { body: { client_email: loud } })).status).toBe(201);
    await waitForMail(loud);
    expect(mailsTo(quiet)).toEqual([]);
    expect(await outboxOf(client, quiet)).toEqual([]);
  });

  it.each([
    ['client_name', { client_name: 'Casey\r\nBcc: everyone@example.test' }],
    ['client_name', { client_name: 'Casey\u202Egnp.exe' }],
    ['client_name', { client_name: 'Casey\u0000' }],
    ['client_email', { client_email: 'casey@example.test\r\nBcc: everyone@example.test' }],
    ['client_email', { client_email: 'not an address' }],
  ])('refuses %s with a line break, NUL, bidi control or bad address (422 naming it), queuing nothing', async (field, body) => {
    const app = await stackApplication('Bad Input Ltd');
    const { client } = await staff();
    const prefix = `bad-${randomBytes(5).toString('hex')}`;
    const r = await client.post(`/api/applications/${app}/invitations`, { body: { client_email: `${prefix}@example.test`, ...body } });
    expect(r.status, r.text).toBe(422);
    const error = BffErrorBody.parse(r.body).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((d) => d.parameter)).toContain(field);
    // Nothing queued for this request's addresses (its own, or the one smuggled in a header).
    const db = await bffDb();
    expect(await db.query(`SELECT id FROM outbox WHERE recipient LIKE $1 OR recipient LIKE '%everyone%'`, [`${prefix}%`])).toEqual([]);
  });

  it('shows a message the server refuses for good (550) as failed with its reply, and the inviter still gets the invitation', async () => {
    sink.setMode({ kind: 'refuse', code: 550, text: 'Mailbox unavailable' });
    const app = await stackApplication('Refused Mail Ltd');
    const { client } = await staff();
    const address = unique('refused');
    const r = await client.post(`/api/applications/${app}/invitations`, { body: { client_email: address } });
    expect(r.status, r.text).toBe(201);
    const [failed] = await until(() => outboxOf(client, address), (m) => m[0]?.status === 'failed', 'the message to fail');
    expect(failed!.last_error).toMatch(/550.*Mailbox unavailable/);
    expect(mailsTo(address)).toEqual([]);
  });

  it('keeps a message refused for now (451) queued with the reply, and sends it once the server takes it', async () => {
    sink.setMode({ kind: 'refuse', code: 451, text: 'Greylisted, try later' });
    const app = await stackApplication('Greylisted Mail Ltd');
    const { client } = await staff();
    const address = unique('later');
    expect((await client.post(`/api/applications/${app}/invitations`, { body: { client_email: address } })).status).toBe(201);
    const [waiting] = await until(() => outboxOf(client, address), (m) => m[0]?.status === 'queued' && (m[0]?.attempts ?? 0) >= 1, 'a refused attempt');
    expect(waiting!.last_error).toMatch(/451.*Greylisted/);
    expect(waiting!.next_attempt_at).not.toBeNull();
    sink.setMode({ kind: 'accept' });
    await waitForMail(address);
    await until(() => outboxOf(client, address), (m) => m[0]?.status === 'sent', 'the message to be sent');
  });

  it('answers the inviter at once while the mail server takes 20 s over a message, which then arrives once', async () => {
    // Slow, but within the transport's 30 s socket timeout: the message is taken on its first attempt.
    sink.setMode({ kind: 'slow', ms: 20_000 });
    const app = await stackApplication('Slow Mail Ltd');
    const { client } = await staff();
    const address = unique('slow');
    const started = performance.now();
    const r = await client.post(`/api/applications/${app}/invitations`, { body: { client_email: address } });
    expect(r.status, r.text).toBe(201);
    // The invitation does not wait for the mail: it is queued in the action's transaction and sent by the worker.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(InvitationCreated.parse(r.body).message).toMatchObject({ status: 'queued' });
    await waitForMail(address);
    const [sent] = await until(() => outboxOf(client, address), (m) => m[0]?.status === 'sent', 'the slow message to be sent');
    expect(sent!.attempts).toBe(1);
    expect(mailsTo(address)).toHaveLength(1);
  }, 90_000);

  it('keeps the Outbox to staff', async () => {
    const { client } = await staff();
    expect((await client.get('/api/outbox')).status).toBe(200);
    expect((await new BffClient(mailer().url).get('/api/outbox')).status).toBe(401);
  });
});
