import { NextResponse } from 'next/server';
import { clearSessionCookie, revokeSession } from '@/server/auth';
import { route, sessionOf } from '@/server/http/route';

// POST /api/auth/sign-out – ends the session here and on the server (takes effect on the next request)
export const POST = route({ roles: 'public' }, async ({ req, db, origin }) => {
  const session = await sessionOf(req, db, origin);
  if (session) await revokeSession(db, session.sid);
  const response = new NextResponse(null, { status: 204, headers: { 'Cache-Control': 'private, no-store' } });
  clearSessionCookie(response.cookies, { appOrigin: origin });
  return response;
});
