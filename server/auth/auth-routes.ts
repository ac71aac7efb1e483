import 'server-only';
import { SignInBody } from '@/lib/bff/auth';
import { createUserSession, signIn, writeSessionCookie, clearSessionCookie, revokeSession } from '@/server/auth';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { sessionView } from '@/server/auth/session-view';
import { AppError } from '@/server/http/app-error';
import { clientAddressOf } from '@/server/http/client-address';
import { route, sessionOf } from '@/server/http/route';
import { NextResponse } from 'next/server';
import { api } from '@/lib/api/endpoints';

// GET /api/auth/session – who is signed in (null when nobody)
const auth_session_GET = route(api.auth.session.GET, { roles: 'public' }, async ({ req, db, origin }) => {
  const session = await sessionOf(req, db, origin);
  return { body: { session: session ? sessionView(session) : null } };
});

// POST /api/auth/sign-in – staff and reviewers sign in with email and password (throttled)
const auth_signIn_POST = route(api.auth.signIn.POST, { roles: 'public', body: SignInBody }, async ({ body, req, db, origin }) => {
  const result = await signIn(db, body.email, body.password, clientAddressOf(req));
  if (!result.ok && result.error === 'throttled') {
    const wait = result.retryAfterSeconds;
    throw new AppError('too_many_attempts', `Too many attempts. Try again in ${wait} second${wait === 1 ? '' : 's'}.`, [], {
      'Retry-After': String(result.retryAfterSeconds),
    });
  }
  if (!result.ok) throw new AppError('unauthenticated', 'The email or password is not right.');
  const created = await createUserSession(db, result.user, { policy: sessionPolicy() });
  const user = result.user;
  const response = NextResponse.json(
    { session: sessionView({ sid: created.sid, kind: 'user', role: user.role, userId: user.id, userEmail: user.email, userName: user.name }) },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
  await writeSessionCookie(response.cookies, created.sid, cookieSettings(origin));
  return response;
});

// POST /api/auth/sign-out – ends the session here and on the server (takes effect on the next request)
const auth_signOut_POST = route(api.auth.signOut.POST, { roles: 'public' }, async ({ req, db, origin }) => {
  const session = await sessionOf(req, db, origin);
  if (session) await revokeSession(db, session.sid);
  const response = new NextResponse(null, { status: 204, headers: { 'Cache-Control': 'private, no-store' } });
  clearSessionCookie(response.cookies, { appOrigin: origin });
  return response;
});

/** The route handlers of auth: each route file under app/api re-exports its methods. */
export const authRoutes = {
  session: { GET: auth_session_GET },
  signIn: { POST: auth_signIn_POST },
  signOut: { POST: auth_signOut_POST },
};
