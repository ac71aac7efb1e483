import { NextResponse } from 'next/server';
import { SignInBody } from '@/lib/bff/auth';
import { createUserSession, signIn, writeSessionCookie } from '@/server/auth';
import { AppError } from '@/server/http/app-error';
import { clientAddressOf } from '@/server/http/client-address';
import { route } from '@/server/http/route';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { sessionView } from '@/server/auth/session-view';

// POST /api/auth/sign-in – staff and reviewers sign in with email and password (throttled)
export const POST = route({ roles: 'public', body: SignInBody }, async ({ body, req, db, origin }) => {
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
