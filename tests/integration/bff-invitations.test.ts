import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionView } from '@/lib/bff/auth';
import { BffErrorBody } from '@/lib/bff/errors';
import { InvitationCreated, InvitationList, InvitationView } from '@/lib/bff/invitations';
import { BffClient, bffDb, bffStack, signedIn, stackApplication } from './support/bff';
import { logCaughtUp } from './support/upstream-log';

const freshApplication = (name = 'Invitation Test Ltd') => stackApplication(name);

const invitationsOf = (app: string) => `/api/applications/${app}/invitations`;
const revokePath = (id: string) => `/api/invitations/${id}/revoke`;

async function invite(staff: BffClient, app: string, body: Record<string, unknown> = {}) {
  const r = await staff.post(invitationsOf(app), { body });
  expect(r.status, r.text).toBe(201);
  const created = InvitationCreated.parse(r.body);
  const link = new URL(created.link);
  return { ...created, path: link.pathname, token: link.pathname.split('/').pop()! };
}

/** Opens a link like a browser following it from an email: a top-level GET, redirects not followed. */
async function open(client: BffClient, path: string) {
  const r = await client.get(path, { headers: { Accept: 'text/html' } });
  expect(r.status).toBe(303);
  expect(r.headers.get('cache-control')).toBe('private, no-store');
  expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  return r.headers.get('location');
}

describe('invitations', () => {
  it('creates a link that opens a client session for that one application, until it is revoked', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = await invite(staff, app, { client_email: ' Casey@Example.com ', client_name: 'Casey Client' });
    expect(created.link).toBe(`${bffStack().url}/invite/${created.token}`);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const inv = created.invitation;
    expect(inv).toMatchObject({ status: 'active', client_email: 'casey@example.com', client_name: 'Casey Client', use_count: 0, revoked_at: null, first_used_at: null });
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(168 * 3_600_000);

    const browser = new BffClient();
    // The first opening of a link welcomes the client (bff-client-welcome.test.ts); the form follows.
    expect(await open(browser, created.path)).toBe(`/applications/${app}/welcome`);
    expect([...browser.cookies.keys()]).toEqual(['intake_session']);
    const session = await browser.get<{ session: unknown }>('/api/auth/session');
    expect(SessionView.parse(session.body.session)).toEqual({ kind: 'client', role: 'client', application_id: app });

    expect((await browser.get(`/api/applications/${app}`)).status).toBe(200);
    const other = await browser.get('/api/applications/ciappl_harbourcafe');
    expect(other.status).toBe(404);
    expect(BffErrorBody.parse(other.body).error.code).toBe('not_found');

    const listed = InvitationList.parse((await staff.get(invitationsOf(app))).body).items;
    expect(listed).toEqual([expect.objectContaining({ id: inv.id, status: 'active', use_count: 1, first_used_at: expect.any(String) })]);

    const revoked = await staff.post(revokePath(inv.id));
    expect(revoked.status).toBe(200);
    const view = InvitationView.parse((revoked.body as { invitation: unknown }).invitation);
    expect(view).toMatchObject({ id: inv.id, status: 'revoked', revoked_at: expect.any(String) });

    // At once: the client's very next request is refused, and the link no longer opens.
    const after = await browser.get(`/api/applications/${app}`);
    expect(after.status).toBe(401);
    expect(await open(new BffClient(), created.path)).toBe('/invite/invalid?reason=revoked');

    // Revoking again changes nothing; an unknown id is 404, a malformed one 400.
    const again = await staff.post(revokePath(inv.id));
    expect(again.status).toBe(200);
    expect((again.body as { invitation: { revoked_at: string } }).invitation.revoked_at).toBe(view.revoked_at);
    expect((await staff.post(revokePath(`inv_${randomBytes(12).toString('hex')}`))).status).toBe(404);
    expect((await staff.post(revokePath('inv_NOT-AN-ID'))).status).toBe(400);
  });

  it('never writes the token to the server log', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = await invite(staff, app);
    await open(new BffClient(), created.path);
    await open(new BffClient(), `/invite/${created.token.slice(1)}x`);
    // The server's output reaches the log file asynchronously: read it once a line logged after these has arrived.
    await logCaughtUp(staff);
    const log = readFileSync(bffStack().logFile, 'utf8');
    expect(log).not.toContain(created.token);
    expect(log).not.toContain(created.token.slice(1));
  });

  it('sends an expired link to the explanation page, and ends the sessions it opened', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = await invite(staff, app, { ttl_hours: 1 });
    expect(Date.parse(created.invitation.expires_at) - Date.parse(created.invitation.created_at)).toBe(3_600_000);
    const browser = new BffClient();
    await open(browser, created.path);
    expect((await browser.get(`/api/applications/${app}`)).status).toBe(200);

    const db = await bffDb();
    await db.query(`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [created.invitation.id]);
    expect(await open(new BffClient(), created.path)).toBe('/invite/invalid?reason=expired');
    expect((await browser.get(`/api/applications/${app}`)).status).toBe(401);
    const listed = InvitationList.parse((await staff.get(invitationsOf(app))).body).items;
    expect(listed[0]).toMatchObject({ id: created.invitation.id, status: 'expired' });
  });

  it('sends an unknown or malformed token to the explanation page', async () => {
    const browser = new BffClient();
    expect(await open(browser, `/invite/${randomBytes(32).toString('base64url')}`)).toBe('/invite/invalid?reason=unknown');
    expect(await open(browser, '/invite/not-a-token')).toBe('/invite/invalid?reason=unknown');
    expect(browser.cookies.size).toBe(0);
  });

  it('explains each reason in plain words on the invalid-link page', async () => {
    const browser = new BffClient();
    const cases: Array<[string, RegExp]> = [
      ['expired', /has expired/],
      ['revoked', /has been withdrawn/],
      ['unknown', /don.t recognise/],
      ['error', /could not open your invitation/],
      ['whatever', /don.t recognise/],
    ];
    for (const [reason, text] of cases) {
      const r = await browser.get(`/invite/invalid?reason=${reason}`, { headers: { Accept: 'text/html' } });
      expect(r.status).toBe(200);
      expect(r.text).toMatch(/<h1[^>]*>/);
      expect(r.text).toMatch(text);
    }
  });

  it('asks a signed-in staff member first, then replaces the staff session with the client session (and ends it)', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = await invite(staff, app);
    const staffCookie = new Map(staff.cookies);

    expect(await open(staff, created.path)).toBe(`${created.path}/confirm`);
    const confirmed = await staff.post('/api/invitations/accept', { body: { token: created.path.split('/').pop() } });
    expect(confirmed.body).toEqual({ location: `/applications/${app}/welcome` });
    const now = SessionView.parse((await staff.get<{ session: unknown }>('/api/auth/session')).body.session);
    expect(now).toEqual({ kind: 'client', role: 'client', application_id: app });

    const old = new BffClient();
    old.cookies = staffCookie;
    expect((await old.get(`/api/applications/${app}`)).status).toBe(401);
  });

  it('lists an application’s invitations newest first with their status', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const a = await invite(staff, app, { client_name: 'First' });
    const b = await invite(staff, app, { client_name: 'Second' });
    const c = await invite(staff, app, { client_name: 'Third' });
    expect((await staff.post(revokePath(b.invitation.id))).status).toBe(200);
    await (await bffDb()).query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [c.invitation.id]);

    const r = await staff.get(invitationsOf(app));
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const items = InvitationList.parse(r.body).items;
    expect(items.map((i) => [i.client_name, i.status])).toEqual([
      ['Third', 'expired'],
      ['Second', 'revoked'],
      ['First', 'active'],
    ]);
    expect(items.map((i) => i.id)).toEqual([c.invitation.id, b.invitation.id, a.invitation.id]);
    // The token is shown once, in the create reply: never in a list.
    for (const x of [a, b, c]) expect(r.text).not.toContain(x.token);
    expect(InvitationList.parse((await staff.get(invitationsOf(await freshApplication()))).body).items).toEqual([]);
  });

  it('checks the body and that the application exists upstream', async () => {
    const { client: staff } = await signedIn('staff');
    const app = await freshApplication();
    for (const body of [{ ttl_hours: 0 }, { ttl_hours: 721 }, { ttl_hours: 1.5 }, { client_email: 'not an email' }, { client_name: '' }, { extra: 1 }]) {
      const r = await staff.post(invitationsOf(app), { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(BffErrorBody.parse(r.body).error.code).toBe('validation_failed');
    }
    const max = await invite(staff, app, { ttl_hours: 720 });
    expect(Date.parse(max.invitation.expires_at) - Date.parse(max.invitation.created_at)).toBe(720 * 3_600_000);

    const missing = await staff.post(invitationsOf('ciappl_doesnotexist0'));
    expect(missing.status).toBe(404);
    expect(BffErrorBody.parse(missing.body).error.request_id).toMatch(/^req_/);
    expect((await staff.post(invitationsOf('not-an-application'))).status).toBe(400);
    expect((await staff.post(invitationsOf(app), { body: {}, noCsrf: true })).status).toBe(403);
  });

  it('lets only staff create, list and revoke invitations', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = await invite(staff, app);
    const { client: reviewer } = await signedIn('reviewer');
    const client = new BffClient();
    await open(client, created.path);

    for (const who of [reviewer, client]) {
      for (const r of [
        await who.get(invitationsOf(app)),
        await who.post(invitationsOf(app), { body: {} }),
        await who.post(revokePath(created.invitation.id)),
      ]) {
        expect(r.status).toBe(403);
        expect(BffErrorBody.parse(r.body).error.code).toBe('forbidden');
      }
    }
    const anonymous = new BffClient();
    expect((await anonymous.get(invitationsOf(app))).status).toBe(401);
    expect((await anonymous.post(revokePath(created.invitation.id))).status).toBe(401);
    // Still active: nobody but staff could touch it.
    expect(InvitationList.parse((await staff.get(invitationsOf(app))).body).items[0]?.status).toBe('active');
  });
});
