import 'server-only';
import { cookies, headers } from 'next/headers';
import { readSessionCookie, resolveSessionCached, type ResolvedSession } from '@/server/auth';
import { getEnv } from '@/server/env';
import { cookieSettings, sessionPolicy } from '@/server/auth/session-settings';
import { appDb } from '@/server/db/app-db';

/** The origin the browser used, for server components (route handlers use requestOrigin). */
async function pageOrigin(): Promise<string> {
  const configured = getEnv().appOrigin;
  if (configured) return configured;
  const h = await headers();
  const host = h.get('host') ?? '127.0.0.1';
  const proto = h.get('x-forwarded-proto') ?? 'http';
  return `${proto}://${host}`;
}

/** The session of the page being rendered, checked against its server-side record like every API call. */
export async function currentSession(): Promise<ResolvedSession | null> {
  const sid = await readSessionCookie(await cookies(), cookieSettings(await pageOrigin()));
  if (!sid) return null;
  return resolveSessionCached(await appDb(), sid, sessionPolicy());
}
