import { NextResponse } from 'next/server';
import { SignInBody } from '@/lib/bff/auth';
import { createUserSession, signIn, writeSessionCookie } from '@/server/auth';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { sessionView } from '@/server/auth/session-view';

const clientIp = (req: Request) => req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || req.headers.get('x-real-ip') || null;

// POST /api/auth/sign-in – staff and reviewers sign in with email and password (throttled)
export const POST = route({ roles: 'public', body: SignInBody }, async ({ body, req, db, origin }) => {
  const result = await signIn(db, body.email, body.password, clientIp(req));
  if (!result.ok && result.error === 'throttled') {
    throw new AppError('too_many_attempts', `Too many attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minute(s).`, [], {
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
