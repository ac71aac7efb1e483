import { NextResponse } from 'next/server';
import { InvitationAcceptBody, type InvitationAccepted } from '@/lib/bff/invitations';
import { writeSessionCookie } from '@/server/auth';
import { cookieSettings } from '@/server/auth/session-settings';
import { AppError } from '@/server/http/app-error';
import { route, sessionOf } from '@/server/http/route';
import { openInvitation } from '@/server/invitations/open-invitation';

// POST /api/invitations/accept – the confirmation page's "continue as the invited client": ends the session the
// browser held and opens the link's client session. A write like any other (X-CSRF, same Origin), so no other
// site can make a signed-in browser switch; opening the link (a GET) only ever asks.
export const POST = route({ roles: 'public', body: InvitationAcceptBody }, async ({ body, req, db, origin }) => {
  const previous = await sessionOf(req, db, origin);
  const opened = await openInvitation(db, body.token, previous);
  if (!opened.ok) {
    throw new AppError('not_found', 'This invitation link cannot be opened.', [{ code: `invitation_${opened.reason}`, message: `The link is ${opened.reason}.`, parameter: 'token' }]);
  }
  const reply: InvitationAccepted = { location: opened.location };
  const response = NextResponse.json(reply, { headers: { 'Cache-Control': 'private, no-store' } });
  await writeSessionCookie(response.cookies, opened.sid, cookieSettings(origin));
  return response;
});
