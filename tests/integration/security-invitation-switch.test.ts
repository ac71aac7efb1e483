import { describe, expect, it } from 'vitest';
import { InvitationAccepted, InvitationCreated } from '@/lib/bff/invitations';
import { BffClient, bffDb, signedIn } from './support/bff';
import { createBusiness } from './support/bff-businesses';
import { errorOf } from './support/route-catalog';

/*
 * Another site could send a signed-in staff member's browser to /invite/<token> and so
 * sign them out and into the client's session. Opening a link now only ever asks a signed-in browser; the switch
 * is a same-origin write (X-CSRF, Origin) made from the confirmation page.
 */

const page = { headers: { Accept: 'text/html' } };
/** What a navigation started by another site carries. */
const crossSite = { headers: { Accept: 'text/html', 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', Referer: 'https://evil.example/' } };

async function newLink(staff: BffClient) {
  const { created } = await createBusiness(staff);
  const r = await staff.post(`/api/applications/${created.application.id}/invitations`, { body: {} });
  expect(r.status, r.text).toBe(201);
  const { invitation, link } = InvitationCreated.parse(r.body);
  return { applicationId: created.application.id, businessName: created.business.name, invitationId: invitation.id, token: new URL(link).pathname.split('/').pop()!, path: new URL(link).pathname };
}

const useCount = async (invitationId: string) => (await (await bffDb()).one<{ use_count: number }>('SELECT use_count FROM invitations WHERE id = $1', [invitationId]))!.use_count;
const whoAmI = async (client: BffClient) => ((await client.get('/api/auth/session')).body as { session: { kind: string; role: string } | null }).session;

describe('an invitation link opened by a signed-in browser', () => {
  it('from another site asks first: the staff session stays, the link is not used', async () => {
    const { client: staff } = await signedIn('staff');
    const link = await newLink(staff);
    const r = await staff.get(link.path, crossSite);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${link.path}/confirm`);
    expect(r.headers.getSetCookie()).toEqual([]);
    expect(await whoAmI(staff)).toMatchObject({ kind: 'user', role: 'staff' });
    expect(await useCount(link.invitationId)).toBe(0);

    const asked = await staff.get(`${link.path}/confirm`, crossSite);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Continue as the invited client?');
    expect(asked.text).toMatch(/You are signed in as <strong>Test staff \(staff\)<\/strong>/);
    expect(asked.text).toContain(`the application of ${link.businessName}`);
    expect(asked.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await whoAmI(staff)).toMatchObject({ kind: 'user', role: 'staff' });
  });

  it('switches only on a same-origin confirmation: a cross-site or header-less POST changes nothing', async () => {
    const { client: staff } = await signedIn('staff');
    const link = await newLink(staff);
    for (const [what, headers, noCsrf] of [
      ['without X-CSRF', {}, true],
      ['from another site', { Origin: 'https://evil.example' }, false],
      ['marked cross-site', { 'Sec-Fetch-Site': 'cross-site' }, false],
    ] as const) {
      const r = await staff.post('/api/invitations/accept', { body: { token: link.token }, headers: { ...headers }, noCsrf });
      expect(r.status, what).toBe(403);
      expect(errorOf(r), what).toEqual({ code: 'csrf_failed', request_id: null });
    }
    expect(await whoAmI(staff)).toMatchObject({ kind: 'user', role: 'staff' });
    expect(await useCount(link.invitationId)).toBe(0);

    const staffCookie = staff.cookieHeader();
    const confirmed = await staff.post('/api/invitations/accept', { body: { token: link.token } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(InvitationAccepted.parse(confirmed.body).location).toBe(`/applications/${link.applicationId}/welcome`);
    expect(await whoAmI(staff)).toMatchObject({ kind: 'client', role: 'client' });
    expect(await useCount(link.invitationId)).toBe(1);
    // The staff session it replaced is over, not merely forgotten by this browser.
    const old = new BffClient();
    old.cookies.set(staffCookie.split('=')[0]!, staffCookie.slice(staffCookie.indexOf('=') + 1));
    expect((await old.get('/api/auth/session')).body).toEqual({ session: null });
  });

  it('by the same link’s client goes straight to the form; by another link’s client asks too', async () => {
    const { client: staff } = await signedIn('staff');
    const first = await newLink(staff);
    const client = new BffClient();
    expect((await client.get(first.path, page)).status).toBe(303);
    expect(await whoAmI(client)).toMatchObject({ kind: 'client' });

    const again = await client.get(first.path, crossSite);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`/applications/${first.applicationId}`);
    expect(again.headers.getSetCookie()).toEqual([]);

    const second = await newLink(staff);
    const other = await client.get(second.path, crossSite);
    expect(other.headers.get('location')).toBe(`${second.path}/confirm`);
    expect((await client.get(`${second.path}/confirm`, page)).text).toContain('the invited client of another application');
    expect(await useCount(second.invitationId)).toBe(0);
  });

  it('that is revoked, expired or unknown says so without asking', async () => {
    const { client: staff } = await signedIn('staff');
    const r = await staff.get('/invite/not-a-real-token-at-all-0123456789', crossSite);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/invite/invalid?reason=unknown');
    const confirm = await staff.get('/invite/not-a-real-token-at-all-0123456789/confirm', page);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe('/invite/invalid?reason=unknown');
    const accepted = await staff.post('/api/invitations/accept', { body: { token: 'not-a-real-token-at-all-0123456789' } });
    expect(accepted.status).toBe(404);
    expect(await whoAmI(staff)).toMatchObject({ kind: 'user' });
  });

  it('signed out still opens at once (the link from the email)', async () => {
    const { client: staff } = await signedIn('staff');
    const link = await newLink(staff);
    const client = new BffClient();
    const r = await client.get(link.path, crossSite);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/applications/${link.applicationId}/welcome`);
    expect(await whoAmI(client)).toMatchObject({ kind: 'client' });
  });
});
