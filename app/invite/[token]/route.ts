import { NextResponse } from 'next/server';
import { api } from '@/lib/api/endpoints';
import { z } from 'zod';
import type { InvitationRefusalReason } from '@/lib/bff/invitations';
import { createClientSession, revokeSession, writeSessionCookie } from '@/server/auth';
import { route, sessionOf } from '@/server/http/route';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { redeemInvitation } from '@/server/invitations';
import { claimWelcome } from '@/server/invitations/client-welcome';
import { log } from '@/server/log';
import { recordInvitationChanged } from '@/server/read-model/record';

// Any string: a malformed token is just an unknown one (redeemInvitation checks its shape).
const TokenParams = z.strictObject({ token: z.string() });

/**
 * A relative Location, so no Host header decides where the browser goes. no-referrer and no-store: the
 * URL that led here holds the token, and neither a cache nor the next page's Referer should keep it.
 */
function seeOther(location: string) {
  return new NextResponse(null, {
    status: 303,
    headers: { Location: location, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' },
  });
}

const refused = (reason: InvitationRefusalReason) => seeOther(`/invite/invalid?reason=${reason}`);

// GET /invite/[token] – opens an invitation link: a client session for its application, then the welcome page (first time) or the form.
// A browser that was signed in (staff, reviewer, or a client of another link) is signed out first: its
// server-side session is revoked and the client session's cookie replaces the old one, so one browser
// never holds two identities and no orphaned staff session outlives the cookie it lost.
export const GET = route(api.invite.GET, { roles: 'public', params: TokenParams }, async ({ params, req, db, origin }) => {
  try {
    const result = await redeemInvitation(db, params.token);
    if (!result.ok) return refused(result.reason);
    await recordInvitationChanged(db, result.invitation.applicationId);
    const previous = await sessionOf(req, db, origin);
    if (previous) await revokeSession(db, previous.sid);
    const created = await createClientSession(db, result.invitation, { policy: sessionPolicy() });
    // The first opening of a link shows the welcome page; later ones go to the form, where it reopens the
    // section the client was last in.
    const application = `/applications/${encodeURIComponent(result.invitation.applicationId)}`;
    const response = seeOther((await claimWelcome(db, result.invitation)) ? `${application}/welcome` : application);
    await writeSessionCookie(response.cookies, created.sid, cookieSettings(origin));
    return response;
  } catch (e) {
    // A person opened a link from an email: a page that says "try again" beats a JSON error. The log
    // line names the error only; the token is in no message the database or iron-session produce.
    log.error('invitation redemption failed', { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    return refused('error');
  }
});
