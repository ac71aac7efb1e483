import { NextResponse } from 'next/server';
import { api } from '@/lib/api/endpoints';
import { z } from 'zod';
import type { InvitationRefusalReason } from '@/lib/bff/invitations';
import { writeSessionCookie } from '@/server/auth';
import { cookieSettings } from '@/server/auth/session-settings';
import { route, sessionOf } from '@/server/http/route';
import { peekInvitation } from '@/server/invitations';
import { openInvitation } from '@/server/invitations/open-invitation';
import { log } from '@/server/log';

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
// A browser that is signed in (staff, a reviewer, the client of another link) is not switched by a navigation,
// which any other site can start: it is sent to the confirmation page (/invite/[token]/confirm), where only a
// same-origin POST with X-CSRF replaces its session. The same link's client goes straight to its form.
export const GET = route(api.invite.GET, { roles: 'public', params: TokenParams }, async ({ params, req, db, origin }) => {
  try {
    const previous = await sessionOf(req, db, origin);
    if (previous) {
      const peeked = await peekInvitation(db, params.token);
      if (!peeked.ok) return refused(peeked.reason);
      if (previous.kind === 'client' && previous.invitationId === peeked.invitation.id) {
        return seeOther(`/applications/${encodeURIComponent(peeked.invitation.applicationId)}`);
      }
      return seeOther(`/invite/${encodeURIComponent(params.token)}/confirm`);
    }
    const opened = await openInvitation(db, params.token, null);
    if (!opened.ok) return refused(opened.reason);
    const response = seeOther(opened.location);
    await writeSessionCookie(response.cookies, opened.sid, cookieSettings(origin));
    return response;
  } catch (e) {
    // A person opened a link from an email: a page that says "try again" beats a JSON error. The log
    // line names the error only; the token is in no message the database or iron-session produce.
    log.error('invitation redemption failed', { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    return refused('error');
  }
});
